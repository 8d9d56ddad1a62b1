package io.sluice.namesrv.controller;

import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The leader's record of broker heartbeats: when each replica was last heard from, its timeout and its CommitLog
 * end. Not replicated: each leadership term starts empty ({@link #lead}) and gives every replica one timeout of
 * grace from that moment before counting it dead, since its heartbeats went to the previous leader.
 *
 * <p>Thread-safe: heartbeat handlers write entries, the election agent reads them; both call {@link #lead} before
 * either, so a term's first caller (whoever it is) clears the previous term's entries before any are written or
 * read in the new one. The monitor of this object guards {@link #term} and the clearing.
 */
final class BrokerLeases {

    private final Map<Key, Lease> leases = new ConcurrentHashMap<>();
    private final long defaultTimeoutMs;
    /** The leadership term the entries belong to; -1 before the first. Guarded by this object's monitor. */
    private long term = -1;
    private volatile long leaderSinceMs;

    BrokerLeases(long defaultTimeoutMs) {
        this.defaultTimeoutMs = defaultTimeoutMs;
    }

    /**
     * This controller leads {@code leaderTerm} at {@code nowMs}: the first call of a term forgets every lease and
     * starts the grace; later calls of the same term change nothing.
     *
     * @return whether this call started the term
     */
    synchronized boolean lead(long leaderTerm, long nowMs) {
        if (leaderTerm == term) {
            return false;
        }
        term = leaderTerm;
        leases.clear();
        leaderSinceMs = nowMs;
        return true;
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

    /** When the replica's last heartbeat arrived, if heard from in this term. */
    OptionalLong lastHeardMs(String brokerName, long brokerId) {
        Lease lease = leases.get(new Key(brokerName, brokerId));
        return lease == null ? OptionalLong.empty() : OptionalLong.of(lease.lastHeartbeatMs);
    }

    /** When the current term started ({@link #lead}). */
    long leaderSinceMs() {
        return leaderSinceMs;
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
