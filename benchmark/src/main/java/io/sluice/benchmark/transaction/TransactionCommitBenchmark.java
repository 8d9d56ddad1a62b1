package io.sluice.benchmark.transaction;

import io.sluice.benchmark.BenchStore;
import io.sluice.broker.transaction.TransactionService;
import io.sluice.broker.transaction.TransactionSettings;
import io.sluice.remoting.protocol.RemotingCommand;
import io.sluice.remoting.protocol.RequestCode;
import io.sluice.remoting.protocol.ResponseCode;
import io.sluice.store.MessageStore;
import io.sluice.store.log.AppendResult;
import io.sluice.store.log.MessageDraft;
import io.sluice.broker.meta.MetadataStore;
import io.sluice.format.MessageProperties;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.agrona.concurrent.SystemEpochClock;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The broker's cost of a committed transaction against a plain send, one thread, ASYNC flush, 1 KiB bodies, a
 * message store in {@code /dev/shm} when it exists (so the figures are the code's cost, not the disk's).
 *
 * <ul>
 *   <li>{@code plainSend}: one append of a single message (what a normal send stores).</li>
 *   <li>{@code commitTransaction}: the half message's append (the send path's rewrite included), then an
 *       END_TRANSACTION COMMIT handed to the transaction thread and waited for: the half message looked up by
 *       position, a commit op record appended, the committed copy appended. One caller, one transaction at a
 *       time: the hand-off to the transaction thread and back is in every operation.</li>
 *   <li>{@code commitPipelined}: {@value #PIPELINE} half messages appended, then their END_TRANSACTIONs handed
 *       over together (as many producers' oneway requests arrive) and the last one waited for; ops/s =
 *       transactions/s.</li>
 * </ul>
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Threads(1)
public class TransactionCommitBenchmark {

    static final String TOPIC = "BenchTxTopic";
    static final String GROUP = "bench-tx-pg";
    /** Transactions per {@code commitPipelined} invocation. */
    static final int PIPELINE = 64;
    static final InetSocketAddress HOST = BenchStore.HOST;

    /** A store, its metadata and a started transaction service; one per trial. */
    @State(Scope.Benchmark)
    public static class Broker {
        BenchStore files;
        MessageStore store;
        TransactionService transactions;
        /** Sent as it is by {@code plainSend}, as a prepared send by {@code commitTransaction}. */
        MessageDraft message;

        @Setup(Level.Trial)
        public void open() throws IOException {
            files = BenchStore.open("sluice-bench-tx", TOPIC);
            store = files.store();
            MetadataStore metadata = files.metadata();
            // No check pass during the measurement: every transaction is committed at once.
            transactions = new TransactionService(store, metadata, group -> Optional.empty(),
                    topic -> metadata.getTopic(topic).isPresent(), new TransactionSettings(600_000, 600_000, 15,
                    "bench-broker"), SystemEpochClock.INSTANCE, HOST);
            transactions.start();
            message = BenchStore.message(TOPIC, MessageProperties.encode(Map.of(MessageProperties.UNIQ_KEY,
                    "7F0000010BB818B4AAC2648B37A60000", MessageProperties.PGROUP, GROUP,
                    MessageProperties.TRAN_MSG, "true")));
        }

        @TearDown(Level.Trial)
        public void close() throws IOException {
            transactions.close();
            files.close();
        }
    }

    @Benchmark
    public AppendResult plainSend(Broker broker) {
        return broker.store.append(broker.message).join();
    }

    @Benchmark
    public RemotingCommand commitTransaction(Broker broker) {
        AppendResult half = broker.store.append(broker.transactions.toHalf(broker.message)).join();
        return committed(broker.transactions.onEndTransaction(null, commit(half)).join());
    }

    @Benchmark
    @OperationsPerInvocation(PIPELINE)
    public RemotingCommand commitPipelined(Broker broker) {
        AppendResult[] halves = new AppendResult[PIPELINE];
        for (int i = 0; i < PIPELINE; i++) {
            halves[i] = broker.store.append(broker.transactions.toHalf(broker.message)).join();
        }
        CompletableFuture<RemotingCommand> last = null;
        for (AppendResult half : halves) {
            last = broker.transactions.onEndTransaction(null, commit(half));
        }
        return committed(last.join());
    }

    /** END_TRANSACTION COMMIT of {@code half}. The handler reads only the request: the connection is not used. */
    private static RemotingCommand commit(AppendResult half) {
        return RemotingCommand.request(RequestCode.END_TRANSACTION)
                .putExtField("producerGroup", GROUP)
                .putExtField("tranStateTableOffset", half.queueOffset())
                .putExtField("commitLogOffset", half.position())
                .putExtField("commitOrRollback", 8);
    }

    private static RemotingCommand committed(RemotingCommand answer) {
        if (answer.code() != ResponseCode.SUCCESS) {
            throw new IllegalStateException("commit refused: " + answer.remark());
        }
        return answer;
    }
}
