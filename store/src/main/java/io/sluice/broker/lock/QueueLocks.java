package io.sluice.broker.lock;

import io.sluice.remoting.protocol.body.MessageQueue;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.agrona.concurrent.EpochClock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Which client of a consumer group holds each queue, for orderly consumption (docs/wire-protocol.md#queue-locks).
 *
 * <p>Rules (Apache's rebalance lock): a lock is per (group, queue) and owned by a client id; it lives
 * {@code lockMaxLiveMs} (Apache: 60 s) from its last grant or renewal. {@link #tryLock} grants a queue that is free,
 * expired, or already held by the same client (renewing it) and refuses one held by another client; it returns the
 * queues the client holds afterwards. {@link #unlock} releases the listed queues held by that client and ignores the
 * others.
 *
 * <p>Thread-safe. Each group's table is guarded by its own monitor, held by the requesting thread for the length of
 * one batch, so a batch is granted atomically with respect to other batches of the same group. Owned by the broker's
 * composition root.
 */
public final class QueueLocks {

    private static final Logger LOG = LoggerFactory.getLogger(QueueLocks.class);

    /** Apache's {@code rocketmq.broker.rebalance.lockMaxLiveTime}. */
    public static final long DEFAULT_LOCK_MAX_LIVE_MS = 60_000;

    private final long lockMaxLiveMs;
    private final EpochClock clock;
    private final ConcurrentHashMap<String, GroupLocks> groups = new ConcurrentHashMap<>();

    /**
     * @param lockMaxLiveMs a lock not renewed for longer than this is free, at least 1
     * @param clock         grant and expiry times
     */
    public QueueLocks(long lockMaxLiveMs, EpochClock clock) {
        if (lockMaxLiveMs < 1) {
            throw new IllegalArgumentException("lockMaxLiveMs must be >= 1, was " + lockMaxLiveMs);
        }
        this.lockMaxLiveMs = lockMaxLiveMs;
        this.clock = clock;
    }

    /**
     * Locks (or renews) {@code queues} for {@code clientId} in {@code group}.
     *
     * @return the requested queues {@code clientId} now holds, in request order
     */
    public Set<MessageQueue> tryLock(String group, String clientId, Collection<MessageQueue> queues) {
        GroupLocks locks = groups.computeIfAbsent(group, g -> new GroupLocks());
        long nowMs = clock.time();
        Set<MessageQueue> held = new LinkedHashSet<>();
        synchronized (locks) {
            for (MessageQueue queue : queues) {
                Lock current = locks.byQueue.get(queue);
                if (current == null || current.clientId.equals(clientId) || current.isExpired(nowMs, lockMaxLiveMs)) {
                    if (current != null && !current.clientId.equals(clientId)) {
                        LOG.info("group {}: lock of {} moves from {} (expired) to {}", group, queue,
                                current.clientId, clientId);
                    }
                    locks.byQueue.put(queue, new Lock(clientId, nowMs));
                    held.add(queue);
                }
            }
        }
        return held;
    }

    /** Releases the listed queues that {@code clientId} holds in {@code group}; others are left alone. */
    public void unlock(String group, String clientId, Collection<MessageQueue> queues) {
        GroupLocks locks = groups.get(group);
        if (locks == null) {
            return;
        }
        synchronized (locks) {
            for (MessageQueue queue : queues) {
                Lock current = locks.byQueue.get(queue);
                if (current != null && current.clientId.equals(clientId)) {
                    locks.byQueue.remove(queue);
                }
            }
        }
    }

    /** The client id holding an unexpired lock on {@code queue} in {@code group}, or empty. */
    public Optional<String> holder(String group, MessageQueue queue) {
        GroupLocks locks = groups.get(group);
        if (locks == null) {
            return Optional.empty();
        }
        long nowMs = clock.time();
        synchronized (locks) {
            Lock current = locks.byQueue.get(queue);
            return current == null || current.isExpired(nowMs, lockMaxLiveMs)
                    ? Optional.empty() : Optional.of(current.clientId);
        }
    }

    /** True when some client holds an unexpired lock on any queue of {@code group}. */
    public boolean hasLiveLock(String group) {
        GroupLocks locks = groups.get(group);
        if (locks == null) {
            return false;
        }
        long nowMs = clock.time();
        synchronized (locks) {
            return locks.byQueue.values().stream().anyMatch(l -> !l.isExpired(nowMs, lockMaxLiveMs));
        }
    }

    /** Drops expired locks (their queues are free anyway); the broker may run it now and then to bound memory. */
    public int purgeExpired() {
        long nowMs = clock.time();
        int purged = 0;
        for (Map.Entry<String, GroupLocks> entry : groups.entrySet()) {
            GroupLocks locks = entry.getValue();
            synchronized (locks) {
                int before = locks.byQueue.size();
                locks.byQueue.values().removeIf(l -> l.isExpired(nowMs, lockMaxLiveMs));
                purged += before - locks.byQueue.size();
            }
        }
        return purged;
    }

    /** One group's locks; guarded by this object's monitor. */
    private static final class GroupLocks {
        final Map<MessageQueue, Lock> byQueue = new HashMap<>();
    }

    /** A granted lock. Immutable. */
    private record Lock(String clientId, long lastUpdateMs) {
        boolean isExpired(long nowMs, long maxLiveMs) {
            return nowMs - lastUpdateMs > maxLiveMs;
        }
    }
}
