package io.sluice.broker.schedule;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.sluice.broker.testing.OpenStores;
import io.sluice.format.MessageProperties;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The re-store of a parked message in the topic and queue it names: the copy keeps what the message carried minus
 * the owner's dropped properties; a message that can never be stored is skipped and counted; a refusal that may
 * pass is a retry, and the same message is delivered once it passes.
 */
@Timeout(30)
class RealTopicRestoreTest {

    private static final InetSocketAddress BORN = new InetSocketAddress(InetAddress.getLoopbackAddress(), 40_001);

    @TempDir
    Path dir;

    private OpenStores stores;
    private RealTopicRestore restore;

    @BeforeEach
    void open() throws IOException {
        stores = OpenStores.open(dir);
        stores.createTopic("T", 4);
        restore = new RealTopicRestore(stores.store(), "parked message",
                List.of(MessageProperties.DELAY, MessageProperties.REAL_TOPIC, MessageProperties.REAL_QID));
    }

    @AfterEach
    void close() {
        stores.close();
    }

    @Test
    void theCopyKeepsTheMessageAndLosesTheDroppedProperties() {
        StoredMessage parked = parked("T", "2", "TAGS\u0001a\u0002KEYS\u0001k1 k2\u0002DELAY\u00013\u0002");
        assertEquals(RealTopicRestore.Outcome.DELIVERED, restore.restore(parked));
        assertEquals(1, restore.deliveredCount());
        stores.awaitDispatched();

        List<ByteBuffer> records = stores.records("T", 2);
        assertEquals(1, records.size());
        StoredMessage copy = StoredMessage.decode(records.get(0));
        assertEquals("T", copy.topic());
        assertEquals(2, copy.queueId());
        assertEquals(77, copy.flag());
        assertEquals(1_700_000_000_123L, copy.bornTimestampMs());
        assertEquals(BORN, copy.bornHost());
        assertEquals(3, copy.reconsumeTimes());
        assertEquals("the parked body", OpenStores.bodyText(copy.body()));
        Map<String, String> properties = MessageProperties.parse(copy.propertiesText());
        assertEquals("a", properties.get(MessageProperties.TAGS));
        assertEquals("k1 k2", properties.get(MessageProperties.KEYS));
        assertNull(properties.get(MessageProperties.DELAY), "dropped: it would park the copy again");
        assertNull(properties.get(MessageProperties.REAL_TOPIC));
        assertNull(properties.get(MessageProperties.REAL_QID));
    }

    @Test
    void messagesNamingNoValidRealQueueAreSkipped() {
        List<StoredMessage> hopeless = List.of(
                parked(null, "1", ""),
                parked("T", null, ""),
                parked("T", "one", ""),
                parked("T", "-1", ""),
                parked("no spaces allowed", "1", ""),
                parked("T", "5000", ""));
        for (StoredMessage message : hopeless) {
            assertEquals(RealTopicRestore.Outcome.SKIPPED, restore.restore(message), message.propertiesText());
        }
        assertEquals(hopeless.size(), restore.skippedCount());
        assertEquals(0, restore.deliveredCount());
        assertEquals(0, restore.appendFailureCount(), "a queue id beyond the limit is illegal, not a failure");
        assertEquals(0, stores.store().stats().writtenPosition(), "nothing was stored");
    }

    @Test
    void propertiesTooLongToStoreAreSkipped() {
        StoredMessage huge = parked("T", "0", "KEYS\u0001" + "k".repeat(40_000) + "\u0002");
        assertEquals(RealTopicRestore.Outcome.SKIPPED, restore.restore(huge));
        assertEquals(1, restore.skippedCount());
        assertEquals(0, restore.appendFailureCount());
    }

    @Test
    void aRefusalThatMayPassIsRetriedAndDeliveredOnceItPasses() {
        StoredMessage parked = parked("T", "1", "TAGS\u0001a\u0002");
        stores.store().setReplica(true);
        assertEquals(RealTopicRestore.Outcome.RETRY, restore.restore(parked), "a slave's store takes no appends");
        assertEquals(1, restore.appendFailureCount());
        assertEquals(0, restore.skippedCount());
        stores.store().setReplica(false);
        assertEquals(RealTopicRestore.Outcome.DELIVERED, restore.restore(parked));
        stores.awaitDispatched();
        assertEquals(1, stores.records("T", 1).size());
    }

    @Test
    void copiesAppendedInTurnAreStoredInThatOrder() {
        List<CompletableFuture<RealTopicRestore.Outcome>> outcomes = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            outcomes.add(restore.restoreAsync(parked("T", "3", "KEYS\u0001n" + i + "\u0002")));
        }
        outcomes.forEach(f -> assertEquals(RealTopicRestore.Outcome.DELIVERED, f.join()));
        stores.awaitDispatched();
        List<ByteBuffer> records = stores.records("T", 3);
        assertEquals(20, records.size());
        for (int i = 0; i < 20; i++) {
            StoredMessage copy = StoredMessage.decode(records.get(i));
            assertEquals("n" + i, MessageProperties.parse(copy.propertiesText()).get(MessageProperties.KEYS));
            assertEquals(i, copy.queueOffset());
        }
        assertEquals(20, restore.deliveredCount());
    }

    @Test
    void anUndecodableRecordCountsAsSkipped() {
        restore.countUndecodable("bad magic");
        restore.countUndecodable("short record");
        assertEquals(2, restore.skippedCount());
        assertFalse(restore.deliveredCount() > 0);
    }

    /** A parked message in queue 0 of a system topic, naming {@code realTopic}/{@code realQid} when non-null. */
    private static StoredMessage parked(String realTopic, String realQid, String otherProperties) {
        StringBuilder properties = new StringBuilder(otherProperties);
        if (realTopic != null) {
            properties.append(MessageProperties.REAL_TOPIC).append('\u0001').append(realTopic).append('\u0002');
        }
        if (realQid != null) {
            properties.append(MessageProperties.REAL_QID).append('\u0001').append(realQid).append('\u0002');
        }
        ByteBuffer body = ByteBuffer.wrap("the parked body".getBytes(StandardCharsets.UTF_8)).asReadOnlyBuffer();
        return new StoredMessage("SCHEDULE_TOPIC_XXXX", 0, 77, 0, 4096, 0, 1_700_000_000_123L, BORN,
                1_700_000_001_000L, OpenStores.STORE_HOST, 3, 0, body, properties.toString());
    }
}
