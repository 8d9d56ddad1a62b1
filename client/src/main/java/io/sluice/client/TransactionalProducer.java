package io.sluice.client;

import io.sluice.format.MessageIdDescriptor;
import io.sluice.client.internal.RecordDecoder;
import io.sluice.client.internal.Rpc;
import io.sluice.format.RecordDescriptor;
import io.sluice.client.internal.TopicRoute;
import io.sluice.remoting.protocol.RemotingCommand;
import io.sluice.remoting.protocol.RequestCode;
import io.sluice.remoting.protocol.body.MessageQueue;
import io.sluice.remoting.transport.ConnectionContext;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Transactional messages (RocketMQ semantics, with any RocketMQ-protocol broker): {@link #sendInTransaction}
 * stores a half message, runs the {@link LocalTransaction} and reports its state with END_TRANSACTION (oneway);
 * the broker delivers the message on COMMIT, discards it on ROLLBACK, and asks the {@link TransactionChecker}
 * (CHECK_TRANSACTION_STATE) about transactions left UNKNOWN or whose report was lost.
 *
 * <p>A report that cannot be written is counted ({@link #endFailureCount}), not thrown: the broker asks the checker
 * later, so the transaction is still decided. Checks run one at a time on the producer's check thread
 * ({@code sluice-transaction-check-<instance>}); at most {@value #MAX_QUEUED_CHECKS} wait, more are dropped and
 * counted (the broker asks again at its next check).
 *
 * <p>Thread-safe: any number of threads may send.
 */
public final class TransactionalProducer implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(TransactionalProducer.class);

    /** Checks waiting for the check thread before more are dropped. */
    static final int MAX_QUEUED_CHECKS = 2_000;
    private static final long STOP_TIMEOUT_MS = 5_000;

    private final Producer producer;
    private final TransactionChecker checker;
    private final ThreadPoolExecutor checks;
    private final AtomicLong checksAnswered = new AtomicLong();
    private final AtomicLong checksDropped = new AtomicLong();
    private final AtomicLong endFailures = new AtomicLong();

    private TransactionalProducer(ProducerSettings settings, TransactionChecker checker) {
        this.checker = Objects.requireNonNull(checker, "checker");
        String thread = "sluice-transaction-check-" + settings.connection().instanceName();
        this.checks = new ThreadPoolExecutor(1, 1, 0, TimeUnit.MILLISECONDS,
                new ArrayBlockingQueue<>(MAX_QUEUED_CHECKS), runnable -> {
                    Thread t = new Thread(runnable, thread);
                    t.setDaemon(true);
                    return t;
                });
        this.producer = Producer.start(settings);
        producer.runtime().registerHandler(RequestCode.CHECK_TRANSACTION_STATE, (connection, request) -> {
            onCheck(connection, request);
            return CompletableFuture.completedFuture(null);
        });
    }

    /**
     * Creates and starts a transactional producer of {@link ProducerSettings#producerGroup()}; the broker asks
     * {@code checker} about this group's unresolved transactions.
     */
    public static TransactionalProducer start(ProducerSettings settings, TransactionChecker checker) {
        return new TransactionalProducer(Objects.requireNonNull(settings, "settings"), checker);
    }

    /** The plain producer underneath, for ordinary sends of the same group. */
    public Producer producer() {
        return producer;
    }

    /**
     * Sends {@code message} as a half message, runs {@code local} once the broker stored it, and reports the
     * state. Waits for the half message's send, not for the report.
     *
     * @throws BrokerErrorException when the broker refuses the half message ({@code local} does not run)
     */
    public TransactionResult sendInTransaction(Message message, LocalTransaction local) {
        Objects.requireNonNull(local, "local");
        SendResult half = producer.awaitSend(producer.sendPrepared(message));
        TransactionState state;
        try {
            state = Objects.requireNonNull(local.execute(message, half), "the local transaction returned null");
        } catch (RuntimeException e) {
            LOG.warn("the local transaction of {} failed; reported UNKNOWN, the broker will check it",
                    half.msgId(), e);
            state = TransactionState.UNKNOWN;
        }
        report(half, state);
        return new TransactionResult(half, state);
    }

    private void report(SendResult half, TransactionState state) {
        String address;
        try {
            TopicRoute route = Rpc.await(producer.runtime().routes().publishRoute(half.queue().topic()),
                    producer.settings().connection().rpcTimeoutMs(), "route of " + half.queue().topic());
            address = route.masterAddress(half.queue().brokerName());
        } catch (RuntimeException e) {
            endFailures.incrementAndGet();
            LOG.warn("END_TRANSACTION of {} not sent: no route; the broker will check it", half.msgId(), e);
            return;
        }
        if (address == null) {
            endFailures.incrementAndGet();
            LOG.warn("END_TRANSACTION of {} not sent: broker {} has no master address; the broker will check it",
                    half.msgId(), half.queue().brokerName());
            return;
        }
        RemotingCommand end = end(half.queueOffset(), MessageIdDescriptor.decode(half.offsetMsgId()).position(),
                state, false, half.msgId(), half.msgId());
        producer.runtime().invokeOneway(address, end).whenComplete((written, error) -> {
            if (error != null) {
                endFailures.incrementAndGet();
            }
        });
    }

    private RemotingCommand end(long tranStateTableOffset, long commitLogOffset, TransactionState state,
                                boolean fromCheck, String msgId, String transactionId) {
        RemotingCommand request = RemotingCommand.request(RequestCode.END_TRANSACTION)
                .putExtField("producerGroup", producer.settings().producerGroup())
                .putExtField("tranStateTableOffset", tranStateTableOffset)
                .putExtField("commitLogOffset", commitLogOffset)
                .putExtField("commitOrRollback", state.wireCode())
                .putExtField("fromTransactionCheck", fromCheck)
                .putExtField("msgId", msgId);
        if (transactionId != null) {
            request.putExtField("transactionId", transactionId);
        }
        return request.markOneway();
    }

    /** CHECK_TRANSACTION_STATE from a broker: decoded on the I/O thread, answered from the check thread. */
    private void onCheck(ConnectionContext connection, RemotingCommand request) {
        long tranStateTableOffset = request.requireLong("tranStateTableOffset");
        long commitLogOffset = request.requireLong("commitLogOffset");
        String transactionId = request.extField("transactionId");
        byte[] body = request.body();
        if (body == null || body.length < RecordDescriptor.MIN_RECORD_BYTES) {
            checksDropped.incrementAndGet();
            return;
        }
        String topic = request.optionalString("topic", "");
        int queueId = ByteBuffer.wrap(body).getInt(RecordDescriptor.QUEUE_ID_OFFSET);
        List<ReceivedMessage> decoded = RecordDecoder.decode(body, new MessageQueue(
                topic.isEmpty() ? "unknown" : topic, request.optionalString("brokerName", "unknown"), queueId));
        if (decoded.isEmpty()) {
            checksDropped.incrementAndGet();
            return;
        }
        ReceivedMessage message = decoded.get(0);
        try {
            checks.execute(() -> answer(connection, message, tranStateTableOffset, commitLogOffset, transactionId));
        } catch (RejectedExecutionException e) {
            checksDropped.incrementAndGet();
        }
    }

    private void answer(ConnectionContext connection, ReceivedMessage message, long tranStateTableOffset,
                        long commitLogOffset, String transactionId) {
        TransactionState state;
        try {
            state = Objects.requireNonNull(checker.check(message), "the transaction checker returned null");
        } catch (RuntimeException e) {
            LOG.warn("checking transaction {} failed; answered UNKNOWN", message.msgId(), e);
            state = TransactionState.UNKNOWN;
        }
        checksAnswered.incrementAndGet();
        connection.sendOneway(end(tranStateTableOffset, commitLogOffset, state, true, message.msgId(),
                transactionId)).whenComplete((written, error) -> {
                    if (error != null) {
                        endFailures.incrementAndGet();
                    }
                });
    }

    /** Checks answered so far. */
    public long checksAnsweredCount() {
        return checksAnswered.get();
    }

    /** Checks dropped: malformed, or too many waiting. */
    public long checksDroppedCount() {
        return checksDropped.get();
    }

    /** END_TRANSACTION reports that could not be sent (the broker checks those transactions later). */
    public long endFailureCount() {
        return endFailures.get();
    }

    /**
     * Stops the check thread after the checks already queued (their answers still go out), then closes the
     * producer. Idempotent.
     */
    @Override
    public void close() {
        checks.shutdown();
        try {
            if (!checks.awaitTermination(STOP_TIMEOUT_MS, TimeUnit.MILLISECONDS)) {
                checks.shutdownNow();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            checks.shutdownNow();
        }
        producer.close();
    }
}
