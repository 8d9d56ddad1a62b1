package io.sluice.broker.ha;

import io.sluice.remoting.protocol.controller.ReplicaInfo;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * A master's view of which slaves are in sync: a slave is in sync while it is alive and has caught up with this
 * master's log end within the last {@code maxNotCatchupMs} (Apache's haMaxTimeSlaveNotCatchup). Slaves report
 * their log ends to the controller, which passes them back in the heartbeat answer; those reports are up to a
 * heartbeat old, so the master compares them with its own ends sampled over time: a slave at position p has
 * caught up at the latest sample whose end was at most p.
 *
 * <p>Not thread-safe: owned by the role agent thread.
 */
public final class SyncStateTracker {

    private final long selfId;
    private final long maxNotCatchupMs;
    private final ArrayDeque<long[]> samples = new ArrayDeque<>();
    private final Map<Long, Long> caughtUpAtMs = new HashMap<>();

    /**
     * @param selfId          this master's controller broker id
     * @param maxNotCatchupMs how long a slave may stay behind and still count as in sync
     */
    public SyncStateTracker(long selfId, long maxNotCatchupMs) {
        this.selfId = selfId;
        this.maxNotCatchupMs = maxNotCatchupMs;
    }

    /**
     * Notes this master's end at {@code nowMs} and the slaves' reported ends, and returns the in-sync set that
     * follows (this master and every slave in sync).
     */
    public Set<Long> update(long nowMs, long masterEnd, ReplicaInfo info) {
        samples.addLast(new long[] {nowMs, masterEnd});
        while (samples.size() > 1 && samples.peekFirst()[0] < nowMs - maxNotCatchupMs) {
            samples.removeFirst();
        }
        Set<Long> inSync = new TreeSet<>();
        inSync.add(selfId);
        for (ReplicaInfo.ReplicaStatus replica : info.replicas()) {
            long id = replica.brokerId();
            if (id == selfId || !replica.alive()) {
                continue;
            }
            long caughtUp = latestSampleAtOrBelow(replica.logEndPosition());
            if (caughtUp >= 0) {
                caughtUpAtMs.merge(id, caughtUp, Math::max);
            }
            Long at = caughtUpAtMs.get(id);
            if (at != null && nowMs - at <= maxNotCatchupMs) {
                inSync.add(id);
            }
        }
        return inSync;
    }

    private long latestSampleAtOrBelow(long position) {
        Iterator<long[]> newestFirst = samples.descendingIterator();
        while (newestFirst.hasNext()) {
            long[] sample = newestFirst.next();
            if (sample[1] <= position) {
                return sample[0];
            }
        }
        return -1;
    }
}
