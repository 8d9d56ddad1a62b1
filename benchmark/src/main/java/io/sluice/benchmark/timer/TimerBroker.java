package io.sluice.benchmark.timer;

import io.sluice.benchmark.BenchFiles;
import io.sluice.broker.timer.TimerService;
import io.sluice.broker.timer.TimerSettings;
import io.sluice.store.MessageStore;
import io.sluice.format.ConsumeQueueType;
import io.sluice.store.StoreSettings;
import io.sluice.store.log.FlushMode;
import io.sluice.store.log.AppendResult;
import io.sluice.store.log.MessageDraft;
import io.sluice.broker.meta.MetadataSettings;
import io.sluice.broker.meta.MetadataStore;
import io.sluice.broker.meta.TopicConfig;
import io.sluice.format.MessageProperties;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.agrona.concurrent.EpochClock;

/**
 * What the timer benchmarks run on: a metadata store, a message store (ASYNC flush unless
 * {@code -Dsluice.bench.flush=SYNC}, 256 MiB segments) and a timer service over them, in a new directory under
 * {@code /dev/shm} when it exists (so the figures are the code's cost, not the disk's), else the temp directory;
 * {@code -Dsluice.bench.dir=...} overrides. The real topic {@value #TOPIC} has {@value #QUEUES} queues.
 * {@link #close} deletes the directory.
 *
 * <p>Used by one benchmark thread; the timer service's own thread only when the caller starts it.
 */
final class TimerBroker implements AutoCloseable {

    static final String TOPIC = "BenchTimerTopic";
    static final int QUEUES = 4;
    static final InetSocketAddress HOST = new InetSocketAddress(InetAddress.getLoopbackAddress(), 10911);
    private static final int SEGMENT_BYTES = 256 * 1024 * 1024;

    final Path dir;
    final MetadataStore metadata;
    final MessageStore store;
    final TimerService timers;
    private final ByteBuffer body;

    private TimerBroker(Path dir, MetadataStore metadata, MessageStore store, TimerService timers, int bodyBytes) {
        this.dir = dir;
        this.metadata = metadata;
        this.store = store;
        this.timers = timers;
        this.body = ByteBuffer.wrap(new byte[bodyBytes]).asReadOnlyBuffer();
    }

    /** Opens the stores and the timer service (not started) with {@code precisionMs} on {@code clock}. */
    static TimerBroker open(String prefix, long precisionMs, EpochClock clock, int bodyBytes) {
        Path dir = newDir(prefix);
        MetadataStore metadata = MetadataStore.open(MetadataSettings.of(dir.resolve("meta")));
        try {
            StoreSettings.Builder settings = StoreSettings.builder(dir.resolve("store"), HOST);
            settings.log().segmentBytes(SEGMENT_BYTES)
                    .flushMode(FlushMode.valueOf(System.getProperty("sluice.bench.flush", "ASYNC")));
            MessageStore store = MessageStore.open(settings.build(),
                    topic -> metadata.getTopic(topic).map(TopicConfig::queueType).orElse(null));
            metadata.putTopic(TopicConfig.of(TOPIC, QUEUES, ConsumeQueueType.SIMPLE));
            TimerService timers = new TimerService(store, metadata, new TimerSettings(true, precisionMs,
                    TimerSettings.DEFAULTS.maxDelayMs()), clock, dir.resolve("timer"));
            return new TimerBroker(dir, metadata, store, timers, bodyBytes);
        } catch (IOException e) {
            metadata.close();
            throw new UncheckedIOException(e);
        }
    }

    private static Path newDir(String prefix) {
        String configured = System.getProperty("sluice.bench.dir");
        Path shm = Path.of("/dev/shm");
        Path base = configured != null ? Path.of(configured)
                : Files.isDirectory(shm) && Files.isWritable(shm) ? shm : Path.of(System.getProperty("java.io.tmpdir"));
        try {
            Files.createDirectories(base);
            return Files.createTempDirectory(base, prefix);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Sends one timer due at {@code deliverMs} to queue {@code seq % QUEUES} the way the send path does (redirected
     * to the timer topic); the body's first 8 bytes carry {@code seq}. Completes when the flush policy confirms
     * the append.
     *
     * @throws IllegalStateException when it is due already (not redirected)
     */
    CompletableFuture<AppendResult> sendTimer(long seq, long deliverMs) {
        String properties = MessageProperties.encode(Map.of(MessageProperties.TIMER_DELIVER_MS,
                Long.toString(deliverMs), MessageProperties.KEYS, Long.toString(seq)));
        ByteBuffer payload = ByteBuffer.allocate(body.capacity());
        payload.put(body.duplicate()).putLong(0, seq).flip();
        MessageDraft draft = MessageDraft.builder(TOPIC, (int) (seq % QUEUES)).body(payload)
                .propertiesText(properties).bornHost(HOST).bornTimestampMs(System.currentTimeMillis()).build();
        MessageDraft timed = timers.redirectIfTimed(draft);
        if (!TimerService.TIMER_TOPIC.equals(timed.topic())) {
            throw new IllegalStateException("the timer due at " + deliverMs + " was not redirected: due already");
        }
        return store.append(timed);
    }

    /** {@link #sendTimer} waiting for the append. @throws IllegalStateException when the store refuses it */
    AppendResult sendTimerAndWait(long seq, long deliverMs) {
        AppendResult result = sendTimer(seq, deliverMs).join();
        if (!result.status().isStored()) {
            throw new IllegalStateException("the timer append was refused: " + result);
        }
        return result;
    }

    /** Waits (spinning with short parks) until dispatch indexed everything written. */
    void awaitDispatched() {
        long written = store.stats().writtenPosition();
        while (store.stats().dispatchedPosition() < written) {
            Thread.onSpinWait();
        }
    }

    /** Messages stored in the real topic, all queues. */
    long deliveredInTopic() {
        long total = 0;
        for (int q = 0; q < QUEUES; q++) {
            total += store.maxOffset(TOPIC, q);
        }
        return total;
    }

    @Override
    public void close() {
        timers.close();
        store.close();
        metadata.close();
        BenchFiles.deleteRecursively(dir);
    }
}
