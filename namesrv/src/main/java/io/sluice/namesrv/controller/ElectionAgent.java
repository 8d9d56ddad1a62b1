package io.sluice.namesrv.controller;

import io.sluice.remoting.thread.RoundAgent;
import java.util.Comparator;
import java.util.Optional;
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
 * record: only a replica with every acknowledged message may take over, so the group waits for one to return.
 *
 * <p>A {@link RoundAgent} (thread {@code sluice-controller-election}) owns the scan. Each round, every
 * {@code scanIntervalMs}: while this controller is leader, check every group and propose (and await) at most one
 * election per group; a follower only notes that it is not leader (its leases are reset when it becomes leader).
 * Stop: {@link #close}.
 */
final class ElectionAgent implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ElectionAgent.class);

    private final Controller controller;
    private final ReplicaTable table;
    private final BrokerLeases leases;
    private final LongSupplier clockMs;
    private final RoundAgent thread;
    private final AtomicLong elections = new AtomicLong();
    /** Whether this controller led at the previous scan; the agent's thread only. */
    private boolean leader;

    ElectionAgent(Controller controller, ReplicaTable table, BrokerLeases leases, LongSupplier clockMs,
                  long scanIntervalMs) {
        this.controller = controller;
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
        boolean nowLeader = controller.isLeader();
        if (nowLeader && !leader) {
            leases.reset(clockMs.getAsLong());
            LOG.info("this controller is the leader now");
        }
        leader = nowLeader;
        if (!nowLeader) {
            return;
        }
        for (ReplicaGroup.GroupView group : table.groups()) {
            long now = clockMs.getAsLong();
            boolean noMaster = group.masterBrokerId() == ReplicaGroup.NO_MASTER;
            if (!noMaster && leases.isAlive(group.brokerName(), group.masterBrokerId(), now)) {
                continue;
            }
            Optional<Long> candidate = candidate(group, now);
            if (candidate.isEmpty()) {
                continue;
            }
            elect(group, candidate.get());
        }
    }

    private Optional<Long> candidate(ReplicaGroup.GroupView group, long nowMs) {
        boolean noMaster = group.masterBrokerId() == ReplicaGroup.NO_MASTER;
        return group.replicas().keySet().stream()
                .filter(id -> id != group.masterBrokerId())
                .filter(id -> noMaster && group.syncStateSet().isEmpty() || group.syncStateSet().contains(id))
                .filter(id -> leases.isHeard(group.brokerName(), id, nowMs))
                .max(Comparator.<Long>comparingLong(id -> leases.logEndPosition(group.brokerName(), id).orElse(-1L))
                        .thenComparing(Comparator.<Long>reverseOrder()));
    }

    private void elect(ReplicaGroup.GroupView group, long newMaster) {
        try {
            ApplyResult result = controller.propose(new ControllerCommand.Elect(group.brokerName(),
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

    @Override
    public void close() {
        thread.close();
    }
}
