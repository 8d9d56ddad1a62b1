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
 * master's log end within the last {@code maxNotCatchupMs} (Apache's haMaxTimeSlaveNotCatchup). A slave's progress
 * is what its HA links acknowledged ({@link HaServer#slaveAcks}): a link counts only once its handshake found the
 * slave's log to be this master's up to the slave's end, so an old master whose log holds a tail this master lacks
 * is not taken in before it has cut that tail and copied (the end it reports to the controller is no measure: it
 * may lie beyond this master's ends while the bytes differ). The master compares the acknowledgements with its own
 * ends sampled over time: a slave at position p has caught up at the latest sample whose end was at most p.
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
     * Notes this master's end at {@code nowMs} and the slaves' acknowledged positions, and returns the in-sync set
     * that follows (this master and every slave in sync).
     *
     * @param info      the group as the controller sees it: which slaves are alive
     * @param slaveAcks per slave brokerId, the highest position its HA links acknowledged; absent: not connected
     */
    public Set<Long> update(long nowMs, long masterEnd, ReplicaInfo info, Map<Long, Long> slaveAcks) {
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
            long caughtUp = latestSampleAtOrBelow(slaveAcks.getOrDefault(id, -1L));
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
