package io.sluice.client.internal;

import io.sluice.remoting.protocol.body.MessageQueue;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Spreads the queues of every subscribed topic over the group's members with {@link Allocation#averagely}
 * (docs/wire-protocol.md#rebalance): on start, every {@code intervalMs}, and whenever {@link #trigger()} is called (a
 * NOTIFY_CONSUMER_IDS_CHANGED from a broker, a subscription change). For each topic it refreshes the route, asks a
 * broker of the route for the members, and hands this member's share to the {@link Listener}.
 *
 * <p>Runs on its own thread, which may block on RPCs (bounded by the RPC timeout); triggers that arrive while a
 * round is running coalesce into one more round. Thread-safe.
 */
public final class RebalanceAgent implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(RebalanceAgent.class);

    /** Told the queues this member now owns, per topic; called on the rebalance thread only. */
    public interface Listener {
        void onAssignment(String topic, List<MessageQueue> queues);
    }

    private final ClientRuntime runtime;
    private final ConsumerRpc rpc;
    private final Supplier<Set<String>> topics;
    private final Listener listener;
    private final long intervalMs;
    private final ExecutorService thread;
    private final AtomicBoolean pending = new AtomicBoolean();

    /**
     * @param topics the subscribed topics, read at every round
     * @param intervalMs period of the rebalance when nothing triggers it
     */
    public RebalanceAgent(ClientRuntime runtime, ConsumerRpc rpc, Supplier<Set<String>> topics, Listener listener,
                          long intervalMs) {
        this.runtime = runtime;
        this.rpc = rpc;
        this.topics = topics;
        this.listener = listener;
        this.intervalMs = intervalMs;
        this.thread = Executors.newSingleThreadExecutor(runnable -> {
            Thread t = new Thread(runnable, "sluice-rebalance-" + rpc.group());
            t.setDaemon(true);
            return t;
        });
    }

    /** Runs a round now and then every {@code intervalMs}. */
    public void start() {
        runtime.timer().scheduleWithFixedDelay(this::trigger, intervalMs, intervalMs, TimeUnit.MILLISECONDS);
        trigger();
    }

    /** Asks for a round as soon as possible. */
    public void trigger() {
        if (pending.compareAndSet(false, true)) {
            try {
                thread.execute(this::round);
            } catch (RejectedExecutionException closed) {
                pending.set(false);
            }
        }
    }

    /** Runs one round on the calling thread's behalf and waits for it (used by tests and start-up). */
    public void rebalanceNow() {
        try {
            thread.submit(this::round).get(runtime.settings().rpcTimeoutMs() * 4, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException e) {
            LOG.debug("rebalance of {} did not complete: {}", rpc.group(), e.toString());
        }
    }

    @Override
    public void close() {
        thread.shutdownNow();
    }

    private void round() {
        pending.set(false);
        for (String topic : topics.get()) {
            try {
                rebalance(topic);
            } catch (RuntimeException e) {
                LOG.debug("rebalance of {} for {} failed: {}", topic, rpc.group(), e.toString());
            }
        }
    }

    private void rebalance(String topic) {
        long timeoutMs = runtime.settings().rpcTimeoutMs() + 1000;
        TopicRoute route = Rpc.await(runtime.routes().refresh(topic), timeoutMs, "route of " + topic);
        List<MessageQueue> all = new ArrayList<>(route.subscribeQueues());
        all.sort(null);
        if (all.isEmpty()) {
            listener.onAssignment(topic, List.of());
            return;
        }
        String address = route.anyAddress(all.get(0).brokerName());
        runtime.heartbeat(Set.copyOf(route.allAddresses())).join();
        List<String> members = Rpc.await(rpc.members(address), timeoutMs, "members of " + rpc.group());
        listener.onAssignment(topic, Allocation.averagely(all, members, runtime.clientId()));
    }
}
