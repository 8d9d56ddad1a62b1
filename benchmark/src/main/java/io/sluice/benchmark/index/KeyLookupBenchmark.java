package io.sluice.benchmark.index;

import io.sluice.benchmark.BenchStore;
import io.sluice.store.MessageStore;
import io.sluice.store.keyindex.KeyIndexSettings;
import io.sluice.store.log.AppendResult;
import io.sluice.store.log.AppendStatus;
import io.sluice.store.log.MessageDraft;
import io.sluice.format.MessageProperties;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * QUERY_MESSAGE's lookup, {@link MessageStore#findByKey}, with {@code messages} messages stored, each carrying a
 * 32-character unique key and one message key (two index entries a message), through the real store: the index
 * thread builds the files as it does in a broker, and a lookup checks each candidate against its CommitLog record.
 * Store in {@code /dev/shm}: the figures are the code's and memory's cost, not a disk's.
 *
 * <p>{@code entriesPerFile} sets how many files the keys spread over. A lookup reads one slot and its chain in
 * every file (newest first, stopping when enough matched), so what it costs depends on the number of files and the
 * chain length (entries / slots), not on the messages stored: 10^8 messages at Apache's sizes (20,000,000 entries,
 * 5,000,000 slots a file) make 10 files with chains of 4, the same shape as 2 x 10^6 messages with 400,000 entries
 * and 100,000 slots a file.
 *
 * <ul>
 *   <li>{@code findByUniqueKey}: a random message's unique key (stops at the first match only when maxNum is 1, as
 *       here; mqadmin asks for 32, so every file is looked at);</li>
 *   <li>{@code findByKey}: a random message's key, up to 32 matches (every file looked at);</li>
 *   <li>{@code findMissingKey}: a key no message carries (every file, every chain).</li>
 * </ul>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
public class KeyLookupBenchmark {

    private static final String TOPIC = "KeyLookup";
    private static final int SAMPLES = 1 << 14;
    private static final int IN_FLIGHT = 4_096;

    /** "messages:entriesPerFile:hashSlotsPerFile". */
    @Param({"2000000:400000:100000", "10000000:20000000:5000000"})
    public String shape;

    private BenchStore bench;
    private MessageStore store;
    private final String[] uniqueKeys = new String[SAMPLES];
    private final String[] keys = new String[SAMPLES];

    /** Per-thread cursor over the samples. */
    @State(Scope.Thread)
    public static class Cursor {
        int next;

        int advance() {
            next = (next + 1) & (SAMPLES - 1);
            return next;
        }
    }

    @Setup(Level.Trial)
    public void fill() throws IOException {
        String[] parts = shape.split(":");
        int messages = Integer.parseInt(parts[0]);
        int entries = Integer.parseInt(parts[1]);
        int slots = Integer.parseInt(parts[2]);
        bench = BenchStore.open("sluice-key-lookup", TOPIC, b -> b.keyIndex(
                KeyIndexSettings.defaults(b.build().rootDir()).withSizes(slots, entries)));
        store = bench.store();
        byte[] body = new byte[16];
        long startNs = System.nanoTime();
        CompletableFuture<?>[] inFlight = new CompletableFuture<?>[IN_FLIGHT];
        for (int i = 0; i < messages; i++) {
            MessageDraft draft = MessageDraft.builder(TOPIC, 0).body(ByteBuffer.wrap(body))
                    .propertiesText(properties(i)).bornHost(BenchStore.HOST)
                    .bornTimestampMs(System.currentTimeMillis()).build();
            int at = i % IN_FLIGHT;
            if (inFlight[at] != null) {
                requireStored(inFlight[at].join());
            }
            inFlight[at] = store.append(draft);
        }
        for (CompletableFuture<?> f : inFlight) {
            if (f != null) {
                requireStored(f.join());
            }
        }
        long storedNs = System.nanoTime();
        while (store.keyIndexStats().indexedPosition() < store.stats().writtenPosition()) {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10));
        }
        long indexedNs = System.nanoTime();
        SplittableRandom random = new SplittableRandom(7);
        for (int i = 0; i < SAMPLES; i++) {
            int m = random.nextInt(messages);
            uniqueKeys[i] = uniqueKey(m);
            keys[i] = "order-" + m;
        }
        System.out.printf(Locale.ROOT, "%n%d messages appended in %d ms, all indexed %d ms later; %s%n", messages,
                TimeUnit.NANOSECONDS.toMillis(storedNs - startNs), TimeUnit.NANOSECONDS.toMillis(indexedNs - storedNs),
                store.keyIndexStats());
    }

    private static String properties(int i) {
        return "KEYS" + MessageProperties.NAME_VALUE_SEPARATOR + "order-" + i + MessageProperties.PROPERTY_SEPARATOR
                + "UNIQ_KEY" + MessageProperties.NAME_VALUE_SEPARATOR + uniqueKey(i)
                + MessageProperties.PROPERTY_SEPARATOR;
    }

    /** 32 hex characters, as the Apache client's message ids. */
    private static String uniqueKey(int i) {
        return String.format(Locale.ROOT, "7F000001B1E818B4AAC2%012X", i);
    }

    private static void requireStored(Object result) {
        if (((AppendResult) result).status() != AppendStatus.PUT_OK) {
            throw new IllegalStateException("append refused: " + result);
        }
    }

    @TearDown(Level.Trial)
    public void close() throws IOException {
        bench.close();
    }

    @Benchmark
    public List<ByteBuffer> findByUniqueKey(Cursor cursor) {
        return found(store.findByKey(TOPIC, uniqueKeys[cursor.advance()], true, 0, Long.MAX_VALUE, 1));
    }

    @Benchmark
    public List<ByteBuffer> findByKey(Cursor cursor) {
        return found(store.findByKey(TOPIC, keys[cursor.advance()], false, 0, Long.MAX_VALUE, 32));
    }

    @Benchmark
    public List<ByteBuffer> findMissingKey(Cursor cursor) {
        return store.findByKey(TOPIC, "missing-" + cursor.advance(), false, 0, Long.MAX_VALUE, 32);
    }

    private static List<ByteBuffer> found(List<ByteBuffer> records) {
        if (records.size() != 1) {
            throw new IllegalStateException("expected one record, found " + records.size());
        }
        return records;
    }
}
