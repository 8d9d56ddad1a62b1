package io.sluice.benchmark;

import io.sluice.store.MessageStore;
import io.sluice.format.ConsumeQueueType;
import io.sluice.store.StoreSettings;
import io.sluice.store.log.MessageDraft;
import io.sluice.broker.meta.MetadataSettings;
import io.sluice.broker.meta.MetadataStore;
import io.sluice.broker.meta.TopicConfig;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import java.util.function.UnaryOperator;

/**
 * A message store and its metadata for the JMH benchmarks of the broker's paths: in {@code /dev/shm} when it exists
 * (so the figures are the code's cost, not the disk's), 256 MiB CommitLog segments, ASYNC flush, one SimpleCQ topic
 * of one queue. Used by one benchmark trial; {@link #close()} deletes the files.
 */
public final class BenchStore implements AutoCloseable {
    /** The store host and born host of the messages. */
    public static final InetSocketAddress HOST = new InetSocketAddress(InetAddress.getLoopbackAddress(), 10911);

    private final Path dir;
    private final MetadataStore metadata;
    private final MessageStore store;

    private BenchStore(Path dir, MetadataStore metadata, MessageStore store) {
        this.dir = dir;
        this.metadata = metadata;
        this.store = store;
    }

    /** Opens a store in a new directory named with {@code prefix}, with {@code topic} created. */
    public static BenchStore open(String prefix, String topic) throws IOException {
        return open(prefix, topic, UnaryOperator.identity());
    }

    /** {@link #open(String, String)} with the store's settings adjusted by {@code adjust}. */
    public static BenchStore open(String prefix, String topic, UnaryOperator<StoreSettings.Builder> adjust)
            throws IOException {
        Path shm = Path.of("/dev/shm");
        Path base = Files.isDirectory(shm) && Files.isWritable(shm) ? shm
                : Path.of(System.getProperty("java.io.tmpdir"));
        Path dir = Files.createTempDirectory(base, prefix);
        MetadataStore metadata = MetadataStore.open(MetadataSettings.of(dir.resolve("meta")));
        StoreSettings.Builder settings = StoreSettings.builder(dir.resolve("store"), HOST);
        settings.log().segmentBytes(256 * 1024 * 1024);
        MessageStore store = MessageStore.open(adjust.apply(settings).build(),
                name -> metadata.getTopic(name).map(TopicConfig::queueType).orElse(null));
        metadata.putTopic(TopicConfig.of(topic, 1, ConsumeQueueType.SIMPLE));
        return new BenchStore(dir, metadata, store);
    }

    /** A message to queue 0 of {@code topic} with a 1 KiB random body and the given encoded properties. */
    public static MessageDraft message(String topic, String properties) {
        byte[] body = new byte[1024];
        new Random(1).nextBytes(body);
        return MessageDraft.builder(topic, 0).body(ByteBuffer.wrap(body)).propertiesText(properties)
                .bornHost(HOST).bornTimestampMs(System.currentTimeMillis()).build();
    }

    /** The directory under which the store lives, for other files of the benchmark. */
    public Path dir() {
        return dir;
    }

    public MetadataStore metadata() {
        return metadata;
    }

    public MessageStore store() {
        return store;
    }

    @Override
    public void close() throws IOException {
        store.close();
        metadata.close();
        BenchFiles.deleteRecursively(dir);
    }
}
