package io.sluice.namesrv.controller;

import io.sluice.remoting.thread.RoundAgent;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The leader's election duty: a group without a master gets one (any replica heard from, the longest log first),
 * and a group whose master's heartbeat is overdue gets a new one from the in-sync set (heard from, longest log
 * first, then lowest id), with the next epoch. A group whose in-sync replicas are all gone keeps its master on
 * record: only a replica with every acknowledged message may take over, so the group waits for one to return; the
 * wait is logged (naming each in-sync replica and when it was last heard from) once each time its reason changes.
 *
 * <p>A {@link RoundAgent} (thread {@code sluice-controller-election}) owns the scan. Each round, every
 * {@code scanIntervalMs}: while this controller is leader, check every group and propose (and await) at most one
 * election per group; a follower only notes that it is not leader. The leases of a new term are started by
 * whichever comes first, this scan or a broker's request ({@link BrokerLeases#lead}). Stop: {@link #close}.
 */
final class ElectionAgent implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ElectionAgent.class);

    private final RaftMember member;
    private final ReplicaTable table;
    private final BrokerLeases leases;
    private final LongSupplier clockMs;
    private final RoundAgent thread;
    private final AtomicLong elections = new AtomicLong();
    /** Groups whose master is overdue with no replica to elect, as last logged; the agent's thread only. */
    private final Map<String, Stall> stalled = new HashMap<>();
    private final AtomicLong stalls = new AtomicLong();
    /** The term this controller led at the previous scan, -1 if it did not lead; the agent's thread only. */
    private long ledTerm = -1;

    ElectionAgent(RaftMember member, ReplicaTable table, BrokerLeases leases, LongSupplier clockMs,
                  long scanIntervalMs) {
        this.member = member;
        this.table = table;
        this.leases = leases;
        this.clockMs = clockMs;
        this.thread = new RoundAgent("sluice-controller-election", scanIntervalMs, nowMs -> scanOnce());
    }

    void start() {
        thread.start();
    }

    /** One scan; on the agent's thread. */
    void scanOnce() {
        OptionalLong term = member.leaderTerm();
        if (term.isEmpty()) {
            ledTerm = -1;
            return;
        }
        leases.lead(term.getAsLong(), clockMs.getAsLong());
        if (term.getAsLong() != ledTerm) {
            ledTerm = term.getAsLong();
            stalled.clear();
            LOG.info("this controller is the leader now (term {})", ledTerm);
        }
        for (ReplicaGroup.GroupView group : table.groups()) {
            long now = clockMs.getAsLong();
            boolean noMaster = group.masterBrokerId() == ReplicaGroup.NO_MASTER;
            if (!noMaster && leases.isAlive(group.brokerName(), group.masterBrokerId(), now)) {
                endStall(group, "its master is heard from again");
                continue;
            }
            Optional<Long> candidate = candidate(group, now);
            if (candidate.isEmpty()) {
                noteStall(group, now);
                continue;
            }
            endStall(group, "broker id " + candidate.get() + " qualifies");
            elect(group, candidate.get());
        }
    }

    /** The replicas an election may choose from, heard from or not. */
    private static Set<Long> eligible(ReplicaGroup.GroupView group) {
        boolean noMaster = group.masterBrokerId() == ReplicaGroup.NO_MASTER;
        Set<Long> eligible = new TreeSet<>();
        for (long id : group.replicas().keySet()) {
            if (id != group.masterBrokerId()
                    && (noMaster && group.syncStateSet().isEmpty() || group.syncStateSet().contains(id))) {
                eligible.add(id);
            }
        }
        return eligible;
    }

    private Optional<Long> candidate(ReplicaGroup.GroupView group, long nowMs) {
        return eligible(group).stream()
                .filter(id -> leases.isHeard(group.brokerName(), id, nowMs))
                .max(Comparator.<Long>comparingLong(id -> leases.logEndPosition(group.brokerName(), id).orElse(-1L))
                        .thenComparing(Comparator.<Long>reverseOrder()));
    }

    /** Logs why {@code group} keeps an overdue master (or none), once per master, epoch and eligible set. */
    private void noteStall(ReplicaGroup.GroupView group, long nowMs) {
        Set<Long> eligible = eligible(group);
        Stall stall = new Stall(group.masterBrokerId(), group.masterEpoch(), eligible);
        if (stall.equals(stalled.put(group.brokerName(), stall))) {
            return;
        }
        stalls.incrementAndGet();
        StringBuilder why = new StringBuilder();
        if (eligible.isEmpty()) {
            why.append("the in-sync set ").append(group.syncStateSet()).append(" holds no other replica");
        }
        for (long id : eligible) {
            why.append(why.length() == 0 ? "" : "; ").append("broker id ").append(id).append(' ')
                    .append(heardText(group.brokerName(), id, nowMs));
        }
        String master = group.masterBrokerId() == ReplicaGroup.NO_MASTER ? "has no master"
                : "master " + group.masterBrokerId() + " (epoch " + group.masterEpoch() + ") is overdue, "
                        + heardText(group.brokerName(), group.masterBrokerId(), nowMs) + ",";
        LOG.warn("broker group {} {} and no in-sync replica heard from may take over: {}", group.brokerName(),
                master, why);
    }

    private String heardText(String brokerName, long brokerId, long nowMs) {
        OptionalLong lastMs = leases.lastHeardMs(brokerName, brokerId);
        return lastMs.isPresent() ? "last heard " + (nowMs - lastMs.getAsLong()) + " ms ago"
                : "not heard from since this controller became leader " + (nowMs - leases.leaderSinceMs())
                        + " ms ago";
    }

    private void endStall(ReplicaGroup.GroupView group, String why) {
        if (stalled.remove(group.brokerName()) != null) {
            LOG.info("broker group {}: no longer stuck without a master: {}", group.brokerName(), why);
        }
    }

    private void elect(ReplicaGroup.GroupView group, long newMaster) {
        try {
            ApplyResult result = member.propose(new ControllerCommand.Elect(group.brokerName(),
                    group.masterEpoch(), newMaster)).get(Controller.PROPOSE_TIMEOUT_MS + 1_000, TimeUnit.MILLISECONDS);
            if (result.isOk()) {
                elections.incrementAndGet();
                LOG.warn("broker group {}: master {} replaced by broker id {} at epoch {}", group.brokerName(),
                        group.masterBrokerId(), newMaster, result.value());
            } else {
                LOG.warn("broker group {}: electing broker id {} refused: {}", group.brokerName(), newMaster,
                        result.remark());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException e) {
            LOG.warn("broker group {}: electing broker id {} failed: {}", group.brokerName(), newMaster, e.toString());
        }
    }

    long elections() {
        return elections.get();
    }

    /** Times a group's master was found overdue with no replica to elect (once per change of the reason). */
    long stalls() {
        return stalls.get();
    }

    @Override
    public void close() {
        thread.close();
    }

    /** What kept a group from an election: its master and epoch, and the replicas that could have taken over. */
    private record Stall(long masterBrokerId, int masterEpoch, Set<Long> eligible) {
    }
}
