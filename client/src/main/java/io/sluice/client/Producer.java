package io.sluice.client;

import io.netty.buffer.ByteBufAllocator;
import io.sluice.client.internal.Accumulator;
import io.sluice.client.internal.BatchBody;
import io.sluice.client.internal.BatchEntryWriter;
import io.sluice.client.internal.BatchMemory;
import io.sluice.client.internal.BatchOutcome;
import io.sluice.client.internal.CallbackTeller;
import io.sluice.client.internal.ClientRuntime;
import io.sluice.client.internal.EncodedMessage;
import io.sluice.client.internal.FailedBrokers;
import io.sluice.client.internal.Rpc;
import io.sluice.client.internal.RoutedSender;
import io.sluice.client.internal.SendJob;
import io.sluice.client.internal.TopicRoute;
import io.sluice.remoting.protocol.body.HeartbeatData;
import io.sluice.remoting.protocol.body.MessageQueue;
import io.sluice.remoting.protocol.body.ProducerData;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * Sends messages: synchronously, asynchronously (future or callback) and oneway; single messages, explicit
 * batches, to a queue the producer picks, a queue the caller names, or one a {@link QueueSelector} chooses.
 *
 * <p>Failed sends are retried ({@link ProducerSettings#retryTimesWhenSendFailed()}), on another broker when there is
 * one, within {@link ProducerSettings#sendTimeoutMs()}; a failed broker is avoided for {@link
 * ProducerSettings#failedBrokerIsolationMs()}. Routes come from the name servers, refreshed periodically.
 *
 * <p>With {@link ProducerSettings#autoBatch()} single sends (sync and async; not oneway) are grouped into batches
 * by topic, tag, WAIT flag and chosen queue; every message still gets its own {@link SendResult}, or its batch's
 * error. Memory held by batches is bounded by {@link ProducerSettings#totalBatchMaxBytes()}.
 *
 * <p>Bad input fails before anything is sent, with an {@link IllegalArgumentException} naming the value: an
 * invalid topic, an empty or oversize body, a malformed batch. Broker error codes surface as
 * {@link BrokerErrorException}; other failures as {@link ClientException}; use after {@link #close()} as
 * {@link ClientClosedException}.
 *
 * <p>Thread-safe: one producer may be shared by any number of sending threads. Asynchronous outcomes are
 * delivered on a client I/O thread, so callbacks and dependent stages must not block.
 */
public final class Producer implements AutoCloseable {
    /** What {@link #batchedPropertiesBytes} gives for a message that is not auto-batched. */
    private static final int NOT_BATCHED = -1;

    private final ProducerSettings settings;
    private final ClientRuntime runtime;
    private final RoutedSender sender;
    private final Accumulator accumulator;
    private final CallbackTeller callbacks = new CallbackTeller();
    private final AtomicInteger directJobs = new AtomicInteger();
    private volatile boolean closed;
    /** The last topic that passed validation; a racy cache (any thread may overwrite it with a valid topic). */
    private volatile String lastValidTopic;

    private Producer(ProducerSettings settings) {
        this.settings = settings;
        this.runtime = new ClientRuntime(settings.connection(), "producer", "", true,
                settings.defaultTopicQueueNums());
        this.sender = new RoutedSender(runtime, runtime.routes(),
                new FailedBrokers(settings.failedBrokerIsolationMs(), System::nanoTime), settings.producerGroup(),
                settings.sendTimeoutMs(), settings.retryTimesWhenSendFailed(), settings.defaultTopicQueueNums());
        this.accumulator = settings.autoBatch()
                ? new Accumulator(settings.batchMaxBytes(), settings.maxMessageBytes(), settings.batchMaxDelayMs(),
                        settings.failWhenBatchMemoryFull(), settings.sendTimeoutMs(),
                        new BatchMemory(settings.totalBatchMaxBytes()), runtime.uniqKeys(), callbacks, sender::send,
                        "sluice-batch-linger-" + settings.connection().instanceName())
                : null;
        HeartbeatData heartbeat = new HeartbeatData(runtime.clientId(),
                Set.of(new ProducerData(settings.producerGroup())), Set.of(), 0, false);
        runtime.start(() -> heartbeat);
    }

    /** Creates and starts a producer; it connects lazily, on the first send to each broker. */
    public static Producer start(ProducerSettings settings) {
        return new Producer(Objects.requireNonNull(settings, "settings"));
    }

    /** The settings. */
    public ProducerSettings settings() {
        return settings;
    }

    /** The client id, {@code <ip>@<instanceName>}. */
    public String clientId() {
        return runtime.clientId();
    }

    /** Sends and waits for the result. */
    public SendResult send(Message message) {
        return await(sendAsync(message));
    }

    /** Sends to {@code queue} and waits for the result. */
    public SendResult send(Message message, MessageQueue queue) {
        return await(sendAsync(message, queue));
    }

    /** Sends to the queue {@code selector} chooses and waits for the result. */
    public SendResult send(Message message, QueueSelector selector, Object arg) {
        return await(sendAsync(message, selector, arg));
    }

    /** Sends asynchronously; the future completes with the result or the error. */
    public CompletableFuture<SendResult> sendAsync(Message message) {
        return submit(message, null);
    }

    /** Sends asynchronously to {@code queue}. */
    public CompletableFuture<SendResult> sendAsync(Message message, MessageQueue queue) {
        Objects.requireNonNull(queue, "queue");
        if (!queue.topic().equals(message.topic())) {
            throw new IllegalArgumentException("queue " + queue + " is not a queue of topic " + message.topic());
        }
        return submit(message, queue);
    }

    /**
     * Sends asynchronously to the queue {@code selector} chooses. The selector runs on the calling thread; when
     * the topic's route is not cached yet, the calling thread first waits for it (up to the RPC timeout).
     */
    public CompletableFuture<SendResult> sendAsync(Message message, QueueSelector selector, Object arg) {
        Objects.requireNonNull(selector, "selector");
        ensureOpen();
        validate(message);
        TopicRoute route = publishRoute(message.topic());
        MessageQueue chosen = selector.select(route.publishQueues(), message, arg);
        if (chosen == null || !route.isPublishQueue(chosen)) {
            throw new IllegalArgumentException("selector chose " + chosen + ", not a writable queue of topic "
                    + message.topic());
        }
        return submit(message, chosen);
    }

    /**
     * Sends asynchronously and tells {@code callback} the outcome. With auto-batching the callback is told straight
     * from its batch's outcome, without a future per message (the cheapest way to send). A callback that throws
     * does not keep the other messages of its batch from being told; such throws are counted and logged at the 1st,
     * 2nd, 4th... time.
     */
    public void sendAsync(Message message, SendCallback callback) {
        Objects.requireNonNull(callback, "callback");
        ensureOpen();
        validate(message);
        int propertiesBytes = batchedPropertiesBytes(message);
        if (propertiesBytes != NOT_BATCHED) {
            // Told straight from the batch's outcome: no future and no dependent stage per message.
            accumulator.add(message, propertiesBytes, null, callback);
            return;
        }
        direct(message, null).whenComplete((result, error) ->
                callbacks.tell(callback, result, error == null ? null : Rpc.unwrap(error)));
    }

    /**
     * Sends once without waiting for the broker (never batched, never retried); returns when the request is
     * written.
     */
    public void sendOneway(Message message) {
        ensureOpen();
        validate(message);
        EncodedMessage encoded = BatchEntryWriter.encode(message, runtime.uniqKeys());
        SendJob job = SendJob.single(encoded, null, new BatchOutcome() {
            @Override
            public void succeeded(List<SendResult> results) {
            }

            @Override
            public void failed(Throwable error) {
            }
        });
        Rpc.await(sender.sendOneway(job), settings.sendTimeoutMs(), "oneway send to " + message.topic());
    }

    /**
     * Sends an explicit batch (one SEND_BATCH_MESSAGE) and waits; results are in batch order.
     *
     * @throws IllegalArgumentException when the batch is empty, mixes topics or WAIT flags, or its encoded size
     *     exceeds {@link ProducerSettings#maxMessageBytes()}
     */
    public List<SendResult> send(List<Message> batch) {
        return await(sendAsync(batch));
    }

    /** Sends an explicit batch asynchronously; see {@link #send(List)}. */
    public CompletableFuture<List<SendResult>> sendAsync(List<Message> batch) {
        ensureOpen();
        Objects.requireNonNull(batch, "batch");
        if (batch.isEmpty()) {
            throw new IllegalArgumentException("batch must not be empty");
        }
        Message first = batch.get(0);
        String tags = first.tags();
        int keyChars = runtime.uniqKeys().keyChars();
        int[] propertiesBytes = new int[batch.size()];
        long bytes = 0;
        for (int i = 0; i < propertiesBytes.length; i++) {
            Message message = batch.get(i);
            validate(message);
            if (!message.topic().equals(first.topic())) {
                throw new IllegalArgumentException("batch mixes topics " + first.topic() + " and " + message.topic());
            }
            if (message.waitStoreMsgOk() != first.waitStoreMsgOk()) {
                throw new IllegalArgumentException("batch mixes waitStoreMsgOk values");
            }
            if (!Objects.equals(tags, message.tags())) {
                tags = null;
            }
            propertiesBytes[i] = BatchEntryWriter.propertiesBytes(message, keyChars);
            bytes += BatchEntryWriter.entryBytes(message, propertiesBytes[i]);
        }
        if (bytes > settings.maxMessageBytes()) {
            throw new IllegalArgumentException("batch of " + batch.size() + " messages encodes to " + bytes
                    + " bytes, more than maxMessageBytes " + settings.maxMessageBytes());
        }
        BatchBody body = BatchBody.allocate(ByteBufAllocator.DEFAULT, (int) bytes, batch.size(), (int) bytes);
        CompletableFuture<List<SendResult>> result = new CompletableFuture<>();
        SendJob job;
        try {
            runtime.uniqKeys().readClock();
            for (int i = 0; i < propertiesBytes.length; i++) {
                body.append(batch.get(i), propertiesBytes[i], runtime.uniqKeys());
            }
            job = SendJob.batch(first.topic(), null, body, runtime.uniqKeys().next(), tags, first.waitStoreMsgOk(),
                    outcome(result));
        } catch (RuntimeException | Error e) {
            body.release(); // not yet the job's
            throw e;
        }
        directJobs.incrementAndGet();
        sender.send(job);
        return result;
    }

    /**
     * Sends {@code message} as the half message of a transaction (never auto-batched; retried like any send): the
     * broker keeps it from consumers until END_TRANSACTION. For {@link TransactionalProducer}.
     */
    CompletableFuture<SendResult> sendPrepared(Message message) {
        ensureOpen();
        validate(message);
        EncodedMessage encoded = BatchEntryWriter.encode(message, runtime.uniqKeys());
        CompletableFuture<List<SendResult>> result = new CompletableFuture<>();
        directJobs.incrementAndGet();
        sender.send(SendJob.single(encoded, null, outcome(result)).asPreparedTransaction(settings.producerGroup()));
        return result.thenApply(results -> results.get(0));
    }

    /** The client runtime (connections, routes, request handlers). For {@link TransactionalProducer}. */
    ClientRuntime runtime() {
        return runtime;
    }

    /** Waits for a send's outcome as the synchronous sends do. */
    <T> T awaitSend(CompletableFuture<T> future) {
        return await(future);
    }

    /** The writable queues of {@code topic}, fetching its route if needed. */
    public List<MessageQueue> publishQueues(String topic) {
        Checks.topic(topic);
        return publishRoute(topic).publishQueues();
    }

    /** Bytes currently held by auto-batching (open and in-flight batches); 0 without auto-batching. */
    public long heldBatchBytes() {
        return accumulator == null ? 0 : accumulator.memory().heldBytes();
    }

    /** Auto-batches sent so far because they were full, and because they had waited long enough. */
    public long[] batchCounts() {
        return accumulator == null ? new long[2]
                : new long[] {accumulator.batchesBySize(), accumulator.batchesByTime()};
    }

    /**
     * Refuses new sends, sends what auto-batching holds, waits (up to the send timeout) for outstanding sends,
     * leaves the producer group and closes the connections. Idempotent.
     */
    @Override
    public void close() {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
        }
        if (accumulator != null) {
            accumulator.close();
        }
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(settings.sendTimeoutMs() + 1000);
        while ((directJobs.get() > 0 || heldBatchBytes() > 0) && System.nanoTime() - deadline < 0) {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
        }
        runtime.unregister(List.of(settings.producerGroup()), List.of());
        runtime.close();
    }

    private CompletableFuture<SendResult> submit(Message message, MessageQueue queue) {
        ensureOpen();
        validate(message);
        int propertiesBytes = batchedPropertiesBytes(message);
        if (propertiesBytes != NOT_BATCHED) {
            return accumulator.add(message, propertiesBytes, queue);
        }
        return direct(message, queue);
    }

    /**
     * The properties size of {@code message} when it goes through auto-batching; {@link #NOT_BATCHED} without
     * auto-batching, or when its entry is too large for a batch (it is then sent on its own).
     */
    private int batchedPropertiesBytes(Message message) {
        if (accumulator == null) {
            return NOT_BATCHED;
        }
        int propertiesBytes = BatchEntryWriter.propertiesBytes(message, runtime.uniqKeys().keyChars());
        return BatchEntryWriter.entryBytes(message, propertiesBytes) <= settings.maxMessageBytes()
                ? propertiesBytes : NOT_BATCHED;
    }

    /** Sends {@code message} on its own, not auto-batched. */
    private CompletableFuture<SendResult> direct(Message message, MessageQueue queue) {
        EncodedMessage encoded = BatchEntryWriter.encode(message, runtime.uniqKeys());
        CompletableFuture<List<SendResult>> result = new CompletableFuture<>();
        directJobs.incrementAndGet();
        sender.send(SendJob.single(encoded, queue, outcome(result)));
        return result.thenApply(results -> results.get(0));
    }

    private BatchOutcome outcome(CompletableFuture<List<SendResult>> result) {
        return new BatchOutcome() {
            @Override
            public void succeeded(List<SendResult> results) {
                if (result.complete(results)) {
                    directJobs.decrementAndGet();
                }
            }

            @Override
            public void failed(Throwable error) {
                if (result.completeExceptionally(error)) {
                    directJobs.decrementAndGet();
                }
            }
        };
    }

    private TopicRoute publishRoute(String topic) {
        return Rpc.await(runtime.routes().publishRoute(topic), settings.connection().rpcTimeoutMs(),
                "route of " + topic);
    }

    private void validate(Message message) {
        Objects.requireNonNull(message, "message");
        String topic = message.topic();
        if (topic != lastValidTopic) {
            Checks.topic(topic);
            lastValidTopic = topic;
        }
        if (RoutedSender.DEFAULT_TOPIC.equals(message.topic())) {
            throw new IllegalArgumentException("topic " + RoutedSender.DEFAULT_TOPIC
                    + " is reserved for auto-creation");
        }
        int bodyBytes = message.body().length;
        if (bodyBytes == 0) {
            throw new IllegalArgumentException("body of a message to topic " + message.topic() + " is empty");
        }
        if (bodyBytes > settings.maxMessageBytes()) {
            throw new IllegalArgumentException("body of " + bodyBytes + " bytes exceeds maxMessageBytes "
                    + settings.maxMessageBytes());
        }
    }

    private void ensureOpen() {
        if (closed) {
            throw new ClientClosedException("producer is closed");
        }
    }

    private <T> T await(CompletableFuture<T> future) {
        long waitMs = settings.sendTimeoutMs() + 2 * (settings.autoBatch() ? settings.batchMaxDelayMs() : 0) + 1000;
        return Rpc.await(future, waitMs, "send");
    }
}
