package io.sluice.namesrv.controller;

import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The leader's record of broker heartbeats: when each replica was last heard from, its timeout and its CommitLog
 * end. Not replicated: a new leader starts empty and gives every replica one timeout of grace from the moment it
 * became leader ({@link #reset}) before counting it dead.
 *
 * <p>Thread-safe: heartbeat handlers write entries, the election agent reads them.
 */
final class BrokerLeases {

    private final Map<Key, Lease> leases = new ConcurrentHashMap<>();
    private final long defaultTimeoutMs;
    private volatile long leaderSinceMs;

    BrokerLeases(long defaultTimeoutMs) {
        this.defaultTimeoutMs = defaultTimeoutMs;
    }

    /** Forgets every lease: this controller just became leader at {@code nowMs}. */
    void reset(long nowMs) {
        leases.clear();
        leaderSinceMs = nowMs;
    }

    void renew(String brokerName, long brokerId, long nowMs, long timeoutMs, long logEndPosition) {
        leases.put(new Key(brokerName, brokerId), new Lease(nowMs, timeoutMs > 0 ? timeoutMs : defaultTimeoutMs,
                logEndPosition));
    }

    /** Heard from within its timeout, or not heard from yet but still within the new leader's grace. */
    boolean isAlive(String brokerName, long brokerId, long nowMs) {
        Lease lease = leases.get(new Key(brokerName, brokerId));
        if (lease == null) {
            return nowMs <= leaderSinceMs + defaultTimeoutMs;
        }
        return nowMs <= lease.lastHeartbeatMs + lease.timeoutMs;
    }

    /** Heard from within its timeout (grace does not count): a candidate for election. */
    boolean isHeard(String brokerName, long brokerId, long nowMs) {
        Lease lease = leases.get(new Key(brokerName, brokerId));
        return lease != null && nowMs <= lease.lastHeartbeatMs + lease.timeoutMs;
    }

    /** The CommitLog end of the replica's last heartbeat. */
    Optional<Long> logEndPosition(String brokerName, long brokerId) {
        Lease lease = leases.get(new Key(brokerName, brokerId));
        return lease == null ? Optional.empty() : Optional.of(lease.logEndPosition);
    }

    private record Key(String brokerName, long brokerId) {
    }

    private record Lease(long lastHeartbeatMs, long timeoutMs, long logEndPosition) {
    }
}
