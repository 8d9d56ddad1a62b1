package io.sluice.client;

import io.sluice.client.internal.ClientRuntime;
import io.sluice.client.internal.ConsumerRpc;
import io.sluice.client.internal.LitePullEngine;
import io.sluice.client.internal.RebalanceAgent;
import io.sluice.client.internal.Rpc;
import io.sluice.client.internal.TagExpression;
import io.sluice.client.internal.TopicRoute;
import io.sluice.remoting.protocol.RequestCode;
import io.sluice.remoting.protocol.body.ConsumeType;
import io.sluice.remoting.protocol.body.ConsumerData;
import io.sluice.remoting.protocol.body.HeartbeatData;
import io.sluice.remoting.protocol.body.MessageModel;
import io.sluice.remoting.protocol.body.MessageQueue;
import io.sluice.remoting.protocol.body.SubscriptionData;
import io.sluice.remoting.transport.RequestHandler;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CompletableFuture;

/**
 * A consumer the application drives: it either {@link #assign}s queues itself or {@link #subscribe}s to topics
 * and lets the group spread the queues over its members (average allocation, redone when members come and go);
 * then it {@link #poll}s, {@link #seek}s and {@link #commit}s.
 *
 * <p>Messages of BatchCQ inner batches arrive unwrapped, each with its own queue offset; a pull that starts in the
 * middle of a batch skips the messages before the requested offset. Each queue is pulled ahead in the background
 * (long polling) into a bounded buffer.
 *
 * <p>Thread-safe, but {@link #poll} is meant to be called by one thread at a time. Choose assign or subscribe
 * mode, not both.
 */
public final class LitePullConsumer implements AutoCloseable {
    private final LitePullSettings settings;
    private final ClientRuntime runtime;
    private final ConsumerRpc rpc;
    private final LitePullEngine agent;
    private final RebalanceAgent rebalance;
    private final Map<String, TagExpression> subscriptions = new ConcurrentHashMap<>();
    private volatile long lastAutoCommitMs = System.currentTimeMillis();
    private volatile boolean assignMode;
    private volatile boolean closed;

    private LitePullConsumer(LitePullSettings settings) {
        this.settings = settings;
        this.runtime = new ClientRuntime(settings.connection(), "lite-consumer", "", false, 1);
        this.rpc = new ConsumerRpc(runtime, settings.consumerGroup());
        this.agent = new LitePullEngine(runtime, rpc, settings.pullBatchSize(), settings.pullThresholdMessages(),
                settings.longPollingSuspendMs(), settings.consumeFrom(), settings.consumeTimestampMs());
        this.rebalance = new RebalanceAgent(runtime, rpc, () -> Set.copyOf(subscriptions.keySet()),
                agent::assign, settings.rebalanceIntervalMs());
        runtime.registerHandler(RequestCode.NOTIFY_CONSUMER_IDS_CHANGED, RequestHandler.sync((connection, request) -> {
            rebalance.trigger();
            return null;
        }));
        runtime.start(this::heartbeat);
        rebalance.start();
    }

    /** Creates and starts a consumer with no queues yet. */
    public static LitePullConsumer start(LitePullSettings settings) {
        return new LitePullConsumer(Objects.requireNonNull(settings, "settings"));
    }

    /**
     * Subscribes to {@code topic} with a tag expression ({@code *} or {@code A || B}); the group's members share
     * its queues. Returns once this member's share has been computed.
     */
    public void subscribe(String topic, String tagExpression) {
        ensureOpen();
        Checks.topic(topic);
        if (assignMode) {
            throw new IllegalStateException("consumer is in assign mode; subscribe and assign cannot be mixed");
        }
        TagExpression expression = TagExpression.parse(tagExpression);
        agent.filter(topic, expression);
        subscriptions.put(topic, expression);
        rebalance.rebalanceNow();
    }

    /** Consumes exactly {@code queues} (replacing any earlier assignment). */
    public void assign(Collection<MessageQueue> queues) {
        ensureOpen();
        if (!subscriptions.isEmpty()) {
            throw new IllegalStateException("consumer is in subscribe mode; subscribe and assign cannot be mixed");
        }
        assignMode = true;
        for (MessageQueue queue : queues) {
            Checks.topic(queue.topic());
        }
        register(queues);
        agent.assign(null, Set.copyOf(queues));
    }

    /** The readable queues of {@code topic}. */
    public List<MessageQueue> fetchQueues(String topic) {
        Checks.topic(topic);
        TopicRoute route = Rpc.await(runtime.routes().refresh(topic), settings.connection().rpcTimeoutMs() + 1000,
                "route of " + topic);
        return route.subscribeQueues();
    }

    /** The queues this consumer currently consumes. */
    public Set<MessageQueue> assignment() {
        return agent.assignment();
    }

    /**
     * Waits up to {@code timeoutMs} for messages; returns those of one pulled batch (one queue, offset order), or
     * an empty list. Commits consumed offsets when auto-commit is due.
     */
    public List<ReceivedMessage> poll(long timeoutMs) {
        ensureOpen();
        Checks.notNegative("timeoutMs", timeoutMs);
        List<ReceivedMessage> messages;
        try {
            messages = agent.poll(timeoutMs);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return List.of();
        }
        if (settings.autoCommit() && System.currentTimeMillis() - lastAutoCommitMs >= settings.autoCommitIntervalMs()) {
            lastAutoCommitMs = System.currentTimeMillis();
            agent.commitConsumed(true);
        }
        return messages;
    }

    /**
     * Continues {@code queue} at {@code offset}.
     *
     * @throws IllegalArgumentException naming the offset when it is outside the queue's [min, max] range
     * @throws IllegalStateException when the queue is not assigned
     */
    public void seek(MessageQueue queue, long offset) {
        ensureOpen();
        if (!agent.isAssigned(queue)) {
            throw new IllegalStateException(queue + " is not assigned to this consumer");
        }
        long timeoutMs = settings.connection().rpcTimeoutMs() + 1000;
        long min = Rpc.await(rpc.minOffset(queue), timeoutMs, "min offset of " + queue);
        long max = Rpc.await(rpc.maxOffset(queue), timeoutMs, "max offset of " + queue);
        if (offset < min || offset > max) {
            throw new IllegalArgumentException("offset " + offset + " of " + queue + " is outside [" + min + ", "
                    + max + "]");
        }
        agent.seek(queue, offset);
    }

    /** Continues {@code queue} at its first stored message. */
    public void seekToBeginning(MessageQueue queue) {
        seek(queue, Rpc.await(rpc.minOffset(queue), settings.connection().rpcTimeoutMs() + 1000, "min offset"));
    }

    /** Continues {@code queue} after its last stored message. */
    public void seekToEnd(MessageQueue queue) {
        seek(queue, Rpc.await(rpc.maxOffset(queue), settings.connection().rpcTimeoutMs() + 1000, "max offset"));
    }

    /** Commits, and waits for, the consumed offset of every assigned queue. */
    public void commit() {
        ensureOpen();
        Rpc.await(agent.commitConsumed(false), settings.connection().rpcTimeoutMs() + 1000, "commit");
    }

    /** Commits the given offsets (next offset to consume per queue) and waits. */
    public void commit(Map<MessageQueue, Long> offsets) {
        ensureOpen();
        register(offsets.keySet());
        CompletableFuture<?>[] commits = offsets.entrySet().stream()
                .map(entry -> rpc.commitOffset(entry.getKey(), entry.getValue(), false))
                .toArray(CompletableFuture[]::new);
        Rpc.await(CompletableFuture.allOf(commits), settings.connection().rpcTimeoutMs() + 1000, "commit");
    }

    /** The group's committed offset of {@code queue} on the broker, or -1 when it has none. */
    public long committed(MessageQueue queue) {
        return Rpc.await(rpc.committedOffset(queue), settings.connection().rpcTimeoutMs() + 1000,
                "committed offset of " + queue);
    }

    /** Commits the consumed offsets, leaves the group and closes the connections. Idempotent. */
    @Override
    public void close() {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
        }
        rebalance.close();
        try {
            Rpc.await(agent.commitConsumed(false), settings.connection().rpcTimeoutMs() + 1000, "final commit");
        } catch (ClientException e) {
            // The broker may be gone; the offsets of the last auto-commit stay.
        }
        agent.close();
        runtime.unregister(List.of(), List.of(settings.consumerGroup()));
        runtime.close();
    }

    /** Sends a heartbeat to the brokers of the queues' topics, so that they know the group before it commits. */
    private void register(Collection<MessageQueue> queues) {
        Set<String> addresses = new HashSet<>();
        long timeoutMs = settings.connection().rpcTimeoutMs() + 1000;
        for (String topic : queues.stream().map(MessageQueue::topic).distinct().toList()) {
            addresses.addAll(Rpc.await(runtime.routes().publishRoute(topic), timeoutMs, "route of " + topic)
                    .allAddresses());
        }
        Rpc.await(runtime.heartbeat(addresses), timeoutMs, "heartbeat");
    }

    private HeartbeatData heartbeat() {
        Set<SubscriptionData> subscriptionData = new HashSet<>();
        subscriptions.forEach((topic, expression) -> subscriptionData.add(expression.toSubscription(topic, 0)));
        ConsumerData consumer = new ConsumerData(settings.consumerGroup(), ConsumeType.CONSUME_ACTIVELY,
                MessageModel.CLUSTERING, settings.consumeFrom().wire(), subscriptionData, false);
        return new HeartbeatData(runtime.clientId(), Set.of(), Set.of(consumer), 0, false);
    }

    private void ensureOpen() {
        if (closed) {
            throw new ClientClosedException("consumer is closed");
        }
    }
}
