package io.sluice.client;

import io.sluice.client.internal.ClientRuntime;
import io.sluice.client.internal.ConcurrentDispatch;
import io.sluice.client.internal.ConsumeDispatch;
import io.sluice.client.internal.ConsumerRpc;
import io.sluice.client.internal.OffsetStore;
import io.sluice.client.internal.OrderlyDispatch;
import io.sluice.client.internal.PushPuller;
import io.sluice.client.internal.RebalanceAgent;
import io.sluice.client.internal.Rpc;
import io.sluice.client.internal.TagExpression;
import io.sluice.remoting.protocol.RequestCode;
import io.sluice.remoting.protocol.body.ConsumeType;
import io.sluice.remoting.protocol.body.ConsumerData;
import io.sluice.remoting.protocol.body.HeartbeatData;
import io.sluice.remoting.protocol.body.MessageModel;
import io.sluice.remoting.protocol.body.MessageQueue;
import io.sluice.remoting.protocol.body.SubscriptionData;
import io.sluice.remoting.transport.RequestHandler;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A consumer that pulls in the background and calls a listener: {@link ConcurrentListener} (any thread, several
 * batches at once; failed messages come back through the group's retry topic) or {@link OrderlyListener} (one
 * batch at a time per queue, in order, under a broker lock).
 *
 * <p>The group's members share the queues of every subscribed topic (and of the group's {@code %RETRY%} topic) by
 * average allocation, redone when members join or leave. Consumed offsets are committed every
 * {@link PushSettings#offsetCommitIntervalMs()}, when a queue goes to another member, and at {@link #close()}.
 * Pulling a queue pauses while its unconsumed messages exceed {@link PushSettings#pullThresholdForQueue()} or
 * {@link PushSettings#pullThresholdSizeForQueueBytes()}. BatchCQ inner batches arrive unwrapped.
 *
 * <p>Usage: {@link #create}, {@link #subscribe}, {@link #registerListener} or {@link #registerOrderlyListener},
 * {@link #start}. Thread-safe.
 */
public final class PushConsumer implements AutoCloseable {
    private final PushSettings settings;
    private final Map<String, TagExpression> subscriptions = new ConcurrentHashMap<>();
    private volatile ConcurrentListener concurrentListener;
    private volatile OrderlyListener orderlyListener;
    private ClientRuntime runtime;
    private PushPuller agent;
    private ConsumeDispatch dispatch;
    private OffsetStore offsets;
    private RebalanceAgent rebalance;
    private volatile boolean started;
    private volatile boolean closed;

    private PushConsumer(PushSettings settings) {
        this.settings = settings;
    }

    /** A consumer, not started yet. */
    public static PushConsumer create(PushSettings settings) {
        return new PushConsumer(Objects.requireNonNull(settings, "settings"));
    }

    /** Subscribes to {@code topic} with a tag expression ({@code *} or {@code A || B}); before or after start. */
    public void subscribe(String topic, String tagExpression) {
        ensureOpen();
        Checks.topic(topic);
        subscriptions.put(topic, TagExpression.parse(tagExpression));
        if (started) {
            rebalance.trigger();
        }
    }

    /** Sets the listener; call before {@link #start()}. */
    public void registerListener(ConcurrentListener listener) {
        ensureNotStarted();
        this.concurrentListener = Objects.requireNonNull(listener, "listener");
        this.orderlyListener = null;
    }

    /** Sets an orderly listener; call before {@link #start()}. */
    public void registerOrderlyListener(OrderlyListener listener) {
        ensureNotStarted();
        this.orderlyListener = Objects.requireNonNull(listener, "listener");
        this.concurrentListener = null;
    }

    /**
     * Starts: heartbeats, the first rebalance (this member's queues are assigned when it returns), pulling.
     *
     * @throws IllegalStateException when no listener or no subscription was set, or when already started
     */
    public synchronized void start() {
        ensureNotStarted();
        if (concurrentListener == null && orderlyListener == null) {
            throw new IllegalStateException("register a listener before start");
        }
        if (subscriptions.isEmpty()) {
            throw new IllegalStateException("subscribe to a topic before start");
        }
        String group = settings.consumerGroup();
        subscriptions.put(retryTopic(), TagExpression.parse("*"));
        runtime = new ClientRuntime(settings.connection(), "push-consumer", "", false, 1);
        ConsumerRpc rpc = new ConsumerRpc(runtime, group);
        offsets = new OffsetStore((queue, offset) -> rpc.commitOffset(queue, offset, false));
        ExecutorService consumers = consumeThreads(group);
        dispatch = concurrentListener != null
                ? new ConcurrentDispatch(concurrentListener, consumers, runtime.timer(), rpc, offsets,
                        settings.consumeBatchMaxSize(), settings.maxReconsumeTimes())
                : new OrderlyDispatch(orderlyListener, consumers, runtime.timer(), rpc, offsets,
                        settings.consumeBatchMaxSize(), settings.maxReconsumeTimes(),
                        settings.suspendCurrentQueueTimeMs(), settings.lockRenewIntervalMs(),
                        settings.connection().rpcTimeoutMs());
        agent = new PushPuller(runtime, rpc, offsets, dispatch, subscriptions, settings.pullBatchSize(),
                settings.pullThresholdForQueue(), settings.pullThresholdSizeForQueueBytes(),
                settings.longPollingSuspendMs(), settings.consumeFrom(), settings.consumeTimestampMs());
        rebalance = new RebalanceAgent(runtime, rpc, () -> Set.copyOf(subscriptions.keySet()), agent::onAssignment,
                settings.rebalanceIntervalMs());
        runtime.registerHandler(RequestCode.NOTIFY_CONSUMER_IDS_CHANGED, RequestHandler.sync((connection, request) -> {
            rebalance.trigger();
            return null;
        }));
        runtime.start(this::heartbeat);
        runtime.timer().scheduleWithFixedDelay(ClientRuntime.guard("offset commit", offsets::commitAll),
                settings.offsetCommitIntervalMs(), settings.offsetCommitIntervalMs(), TimeUnit.MILLISECONDS);
        started = true;
        rebalance.rebalanceNow();
        rebalance.start();
    }

    /** The queues this member consumes now. */
    public Set<MessageQueue> assignment() {
        return agent == null ? Set.of() : agent.assignment();
    }

    /** The in-memory consume offsets (next offset to consume) of the assigned queues. */
    public Map<MessageQueue, Long> offsets() {
        return offsets == null ? Map.of() : offsets.snapshot();
    }

    /** How often pulling was put off by flow control so far. */
    public long flowControlCount() {
        return agent == null ? 0 : agent.flowControlled();
    }

    /**
     * Stops pulling, lets running listener calls finish (up to 5 s), commits the offsets, leaves the group and
     * closes the connections. Idempotent.
     */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (!started) {
            return;
        }
        rebalance.close();
        agent.stopPulling();
        dispatch.close();
        agent.close();
        try {
            Rpc.await(offsets.commitEverything(), settings.connection().rpcTimeoutMs() + 1000, "final offset commit");
        } catch (ClientException e) {
            // The broker may be gone; the last periodic commit stands.
        }
        runtime.unregister(List.of(), List.of(settings.consumerGroup()));
        runtime.close();
    }

    private HeartbeatData heartbeat() {
        Set<SubscriptionData> subscriptionData = new HashSet<>();
        subscriptions.forEach((topic, expression) -> subscriptionData.add(expression.toSubscription(topic, 0)));
        ConsumerData consumer = new ConsumerData(settings.consumerGroup(), ConsumeType.CONSUME_PASSIVELY,
                MessageModel.CLUSTERING, settings.consumeFrom().wire(), subscriptionData, false);
        return new HeartbeatData(runtime.clientId(), Set.of(), Set.of(consumer), 0, false);
    }

    private String retryTopic() {
        return "%RETRY%" + settings.consumerGroup();
    }

    private ExecutorService consumeThreads(String group) {
        AtomicInteger counter = new AtomicInteger();
        int threads = settings.consumeThreads();
        return new ThreadPoolExecutor(threads, threads, 60, TimeUnit.SECONDS, new LinkedBlockingQueue<>(), runnable -> {
            Thread thread = new Thread(runnable, "sluice-consume-" + group + "-" + counter.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        });
    }

    private void ensureOpen() {
        if (closed) {
            throw new ClientClosedException("consumer is closed");
        }
    }

    private void ensureNotStarted() {
        ensureOpen();
        if (started) {
            throw new IllegalStateException("consumer already started");
        }
    }
}
