package io.sluice.broker.auth;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * For {@link AuthenticationStrategy#STATEFUL}: the user whose signature each connection has shown, and until when
 * that counts. One user per connection (a client signs all its requests with one key); a request from another user
 * is verified and then replaces it. An entry counts only while the user's record is the one verified: a user whose
 * secret changed or who was removed and added again must sign anew.
 *
 * <p>Bounded: at {@code maxEntries} expired entries are dropped, and when none has expired a new connection is
 * simply verified on every request until room appears. Entries of closed connections expire like the others.
 *
 * <p>Thread-safe (the I/O threads): a concurrent map, each value immutable.
 */
final class AuthenticatedConnections {

    private final long ttlNanos;
    private final int maxEntries;
    private final Map<String, Verified> byConnection = new ConcurrentHashMap<>();

    private record Verified(User user, long untilNanos) {
    }

    /**
     * @param ttlSeconds how long a verified signature counts ({@code statefulAuthenticationCacheExpiredSecond})
     * @param maxEntries connections remembered at most ({@code statefulAuthenticationCacheMaxNum})
     */
    AuthenticatedConnections(int ttlSeconds, int maxEntries) {
        if (ttlSeconds <= 0 || maxEntries <= 0) {
            throw new IllegalArgumentException("ttlSeconds and maxEntries must be positive, were " + ttlSeconds
                    + " and " + maxEntries);
        }
        this.ttlNanos = TimeUnit.SECONDS.toNanos(ttlSeconds);
        this.maxEntries = maxEntries;
    }

    /** Whether {@code connectionId} has shown {@code user}'s signature (this very record) within the time to live. */
    boolean verified(String connectionId, User user, long nowNanos) {
        Verified v = byConnection.get(connectionId);
        return v != null && v.user() == user && nowNanos - v.untilNanos() < 0;
    }

    /** Remembers that {@code connectionId} has just shown {@code user}'s valid signature. */
    void remember(String connectionId, User user, long nowNanos) {
        if (byConnection.size() >= maxEntries && !byConnection.containsKey(connectionId)) {
            byConnection.values().removeIf(v -> nowNanos - v.untilNanos() >= 0);
            if (byConnection.size() >= maxEntries) {
                return;
            }
        }
        byConnection.put(connectionId, new Verified(user, nowNanos + ttlNanos));
    }

    /** Connections remembered now, expired ones included until the next sweep. */
    int size() {
        return byConnection.size();
    }
}
