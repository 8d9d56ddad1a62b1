package io.sluice.broker.testing;

import io.sluice.testing.Await;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.store.GetResult;
import io.sluice.store.GetStatus;
import io.sluice.store.MessageStore;
import io.sluice.format.ConsumeQueueType;
import io.sluice.store.StoreSettings;
import io.sluice.store.log.AppendResult;
import io.sluice.store.log.MessageDraft;
import io.sluice.broker.meta.MetadataSettings;
import io.sluice.broker.meta.MetadataStore;
import io.sluice.broker.meta.TopicConfig;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A metadata store and a small-segment message store in a test directory, with the broker's queue-type lookup
 * (an unknown topic is not indexed, so tests create their topics first). Used by one test at a time.
 */
public final class OpenStores implements AutoCloseable {

    /** The store host written into records. */
    public static final InetSocketAddress STORE_HOST = new InetSocketAddress(InetAddress.getLoopbackAddress(), 10911);
    /** The born host of test drafts. */
    public static final InetSocketAddress BORN_HOST = new InetSocketAddress(InetAddress.getLoopbackAddress(), 46510);

    private final MetadataStore metadata;
    private final MessageStore store;

    private OpenStores(MetadataStore metadata, MessageStore store) {
        this.metadata = metadata;
        this.store = store;
    }

    /** Opens both stores under {@code dir}. */
    public static OpenStores open(Path dir) throws IOException {
        MetadataStore metadata = MetadataStore.open(MetadataSettings.of(dir.resolve("meta")));
        StoreSettings.Builder settings = StoreSettings.builder(dir.resolve("store"), STORE_HOST);
        settings.log().segmentBytes(4 * 1024 * 1024).maxMessageBytes(1024 * 1024);
        try {
            MessageStore store = MessageStore.open(settings.build(),
                    topic -> metadata.getTopic(topic).map(TopicConfig::queueType).orElse(null));
            return new OpenStores(metadata, store);
        } catch (IOException | RuntimeException e) {
            metadata.close();
            throw e;
        }
    }

    public MetadataStore metadata() {
        return metadata;
    }

    public MessageStore store() {
        return store;
    }

    /** Creates a SimpleCQ topic with {@code queues} queues. */
    public TopicConfig createTopic(String topic, int queues) {
        return createTopic(topic, queues, ConsumeQueueType.SIMPLE);
    }

    /** Creates a topic. */
    public TopicConfig createTopic(String topic, int queues, ConsumeQueueType type) {
        TopicConfig config = TopicConfig.of(topic, queues, type);
        metadata.putTopic(config);
        return config;
    }

    /** A single-message draft from {@link #BORN_HOST}. */
    public static MessageDraft draft(String topic, int queueId, String body, String properties) {
        return MessageDraft.builder(topic, queueId).body(body.getBytes(StandardCharsets.UTF_8))
                .propertiesText(properties).bornHost(BORN_HOST).bornTimestampMs(1_700_000_000_000L).build();
    }

    /** Appends, asserts it was stored, and waits until dispatch indexed it. */
    public AppendResult append(MessageDraft draft) {
        AppendResult result = store.append(draft).join();
        assertTrue(result.status().isStored(), () -> "append to " + draft.topic() + " refused: " + result);
        awaitDispatched(result.nextPosition());
        return result;
    }

    /** Waits until dispatch passed {@code position}. */
    public void awaitDispatched(long position) {
        Await.until("dispatch to position " + position, 10_000,
                () -> store.stats().dispatchedPosition() >= position, () -> store.stats());
    }

    /** Waits until dispatch caught up with everything written so far. */
    public void awaitDispatched() {
        awaitDispatched(store.stats().writtenPosition());
    }

    /** Every record of a queue, from its min offset. */
    public List<ByteBuffer> records(String topic, int queueId) {
        List<ByteBuffer> all = new ArrayList<>();
        long offset = store.minOffset(topic, queueId);
        while (true) {
            GetResult r = store.getMessages(topic, queueId, offset, 32, 4 * 1024 * 1024, null);
            if (r.status() != GetStatus.FOUND) {
                return all;
            }
            all.addAll(r.records());
            offset = r.nextOffset();
        }
    }

    /** Body text of a record. */
    public static String bodyText(ByteBuffer body) {
        byte[] bytes = new byte[body.remaining()];
        body.duplicate().get(bytes);
        return new String(bytes, StandardCharsets.UTF_8);
    }

    @Override
    public void close() {
        store.close();
        metadata.close();
    }
}
