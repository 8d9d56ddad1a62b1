package io.sluice.broker.schedule;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.broker.testing.OpenStores;
import io.sluice.store.log.AppendResult;
import io.sluice.store.log.MessageDraft;
import io.sluice.format.MessageIdDescriptor;
import io.sluice.format.MessageProperties;
import io.sluice.format.RecordDescriptor;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Stream;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.AlphaChars;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.NumericChars;
import net.jqwik.api.constraints.Size;
import net.jqwik.api.constraints.StringLength;
import net.jqwik.api.lifecycle.AfterProperty;
import net.jqwik.api.lifecycle.BeforeProperty;

/** Records written by the CommitLog decode back to what was appended. */
class StoredMessageTest {

    private Path dir;
    private OpenStores stores;

    @BeforeProperty
    void open() throws IOException {
        dir = Files.createTempDirectory("stored-message");
        stores = OpenStores.open(dir);
    }

    @AfterProperty
    void close() throws IOException {
        stores.close();
        try (Stream<Path> paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    @Property(tries = 100)
    void decodesWhatWasAppended(
            @ForAll @AlphaChars @NumericChars @StringLength(min = 1, max = 60) String topic,
            @ForAll @IntRange(min = 0, max = 7) int queueId,
            @ForAll @Size(max = 2_000) byte[] body,
            @ForAll @Size(max = 5) Map<@AlphaChars @StringLength(min = 1, max = 10) String,
                    @AlphaChars @NumericChars @StringLength(min = 1, max = 20) String> properties,
            @ForAll int flag,
            @ForAll @IntRange(min = 0, max = 20) int reconsumeTimes,
            @ForAll boolean ipv6BornHost) throws IOException {
        InetSocketAddress bornHost = ipv6BornHost
                ? new InetSocketAddress(InetAddress.getByName("fe80::1234:5678:9abc:def0"), 40001)
                : new InetSocketAddress(InetAddress.getByName("10.1.2.3"), 40002);
        String text = MessageProperties.encode(new LinkedHashMap<>(properties));
        MessageDraft draft = MessageDraft.builder(topic, queueId).body(body).propertiesText(text).flag(flag)
                .reconsumeTimes(reconsumeTimes).bornHost(bornHost).bornTimestampMs(1_700_000_000_123L).build();
        stores.createTopic(topic, 8);
        AppendResult result = stores.store().append(draft).join();
        assertTrue(result.status().isStored(), result::toString);

        StoredMessage m = StoredMessage.decode(stores.store().recordAt(result.position()).orElseThrow());

        assertEquals(topic, m.topic());
        assertEquals(queueId, m.queueId());
        assertEquals(flag, m.flag());
        assertEquals(result.queueOffset(), m.queueOffset());
        assertEquals(result.position(), m.position());
        assertEquals(1_700_000_000_123L, m.bornTimestampMs());
        assertEquals(bornHost, m.bornHost());
        assertEquals(result.storeTimestampMs(), m.storeTimestampMs());
        assertEquals(OpenStores.STORE_HOST, m.storeHost());
        assertEquals(reconsumeTimes, m.reconsumeTimes());
        assertEquals(0, m.preparedTransactionOffset());
        assertArrayEquals(body, bytes(m.body()));
        assertEquals(text, m.propertiesText());
        assertEquals(result.msgIds(), m.offsetMsgId());
        assertEquals(result.position(), MessageIdDescriptor.decode(m.offsetMsgId()).position());
    }

    @Example
    void refusesBytesThatAreNotARecord() {
        stores.createTopic("T", 1);
        AppendResult result = stores.store().append(OpenStores.draft("T", 0, "hello", "")).join();
        ByteBuffer record = stores.store().recordAt(result.position()).orElseThrow();
        byte[] copy = bytes(record);

        ByteBuffer badMagic = ByteBuffer.wrap(copy.clone());
        badMagic.putInt(RecordDescriptor.MAGIC_OFFSET, 0x12345678);
        assertThrows(IllegalArgumentException.class, () -> StoredMessage.decode(badMagic));

        ByteBuffer truncated = ByteBuffer.wrap(copy, 0, copy.length - 1).slice();
        assertThrows(IllegalArgumentException.class, () -> StoredMessage.decode(truncated));

        ByteBuffer badBodyLength = ByteBuffer.wrap(copy.clone());
        badBodyLength.putInt(RecordDescriptor.bodyLengthOffset(0), copy.length);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> StoredMessage.decode(badBodyLength));
        assertTrue(e.getMessage().contains("BODYLENGTH"), e.getMessage());
    }

    private static byte[] bytes(ByteBuffer buffer) {
        byte[] out = new byte[buffer.remaining()];
        buffer.duplicate().get(out);
        return out;
    }
}
