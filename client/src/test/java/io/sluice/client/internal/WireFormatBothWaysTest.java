package io.sluice.client.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.client.Message;
import io.sluice.client.ReceivedMessage;
import io.sluice.format.BatchBodyDescriptor;
import io.sluice.format.MessageIdDescriptor;
import io.sluice.format.MessageProperties;
import io.sluice.format.RecordDescriptor;
import io.sluice.format.UniqKeyGenerator;
import io.sluice.remoting.protocol.body.MessageQueue;
import io.sluice.store.log.AppendKind;
import io.sluice.store.log.AppendResult;
import io.sluice.store.log.AppendStatus;
import io.sluice.store.log.CommitLog;
import io.sluice.store.log.LogSettings;
import io.sluice.store.log.MessageDraft;
import io.sluice.store.log.ReadResult;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import net.jqwik.api.constraints.Size;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Timeout;

/**
 * Each shared format used both ways: what the client writes the broker's engine reads, and what the engine writes
 * the client reads. The broker side is a real CommitLog, so a record the client decodes is one the engine stored.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class WireFormatBothWaysTest {
    private static final UniqKeyGenerator KEYS = new UniqKeyGenerator(new byte[] {10, 0, 0, 9}, 4242, 77,
            () -> 1_700_000_000_000L, ZoneId.of("UTC"));
    private static final InetSocketAddress STORE_HOST = new InetSocketAddress(InetAddress.getLoopbackAddress(), 10911);
    private static final InetSocketAddress BORN_HOST = new InetSocketAddress(InetAddress.getLoopbackAddress(), 40001);
    private static final MessageQueue QUEUE = new MessageQueue("Topic_1", "broker-a", 3);

    private static Path dir;
    private static CommitLog log;

    @BeforeContainer
    static void openLog() throws IOException {
        dir = Files.createTempDirectory("wire-format-both-ways");
        LogSettings settings = LogSettings.builder(dir.resolve("commitlog"), STORE_HOST)
                .segmentBytes(1 << 20).maxMessageBytes(64 * 1024).build();
        log = CommitLog.open(settings);
        log.recover(0, true, entry -> { });
    }

    @AfterContainer
    static void closeLog() throws IOException {
        log.close();
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(path);
            }
        }
    }

    /**
     * Batch entries and stored records: the client writes a batch body, the engine reads its entries and stores
     * them (one record each, or one inner-batch record), and the client decodes the stored records back into the
     * messages it sent, with the offsets and offset message ids the engine assigned.
     */
    @Property(tries = 120)
    void shouldStoreWhatTheClientWritesAndDecodeWhatTheEngineStores(@ForAll("messages") List<Message> messages,
                                                                     @ForAll boolean innerBatch) throws Exception {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        List<String> uniqKeys = new ArrayList<>();
        for (Message message : messages) {
            EncodedMessage encoded = BatchEntryWriter.encode(message, KEYS);
            body.write(encoded.entry());
            uniqKeys.add(encoded.uniqKey());
        }
        assertEquals(messages.size(), BatchBodyDescriptor.count(ByteBuffer.wrap(body.toByteArray())));

        AppendKind kind = innerBatch ? AppendKind.INNER_BATCH : AppendKind.UNPACKED_BATCH;
        MessageDraft draft = MessageDraft.builder(QUEUE.topic(), QUEUE.queueId()).body(body.toByteArray())
                .bornHost(BORN_HOST).bornTimestampMs(1_700_000_000_000L).kind(kind).build();
        AppendResult stored = log.append(draft).get(30, TimeUnit.SECONDS);
        assertEquals(AppendStatus.PUT_OK, stored.status(), stored.toString());

        List<ReceivedMessage> received = RecordDecoder.decode(storedBytes(stored), QUEUE);
        assertEquals(messages.size(), received.size());
        String[] offsetIds = stored.msgIds().split(",");
        for (int i = 0; i < messages.size(); i++) {
            Message sent = messages.get(i);
            ReceivedMessage got = received.get(i);
            assertArrayEquals(sent.body(), got.body());
            assertEquals(sent.flag(), got.flag());
            assertEquals(sent.tags(), got.tags());
            assertEquals(sent.keys(), got.keys());
            assertEquals(sent.waitStoreMsgOk() ? null : "false", got.property(MessageProperties.WAIT));
            assertEquals(uniqKeys.get(i), got.msgId());
            sent.properties().forEach((name, value) -> assertEquals(value, got.property(name)));
            assertEquals(stored.queueOffset() + i, got.queueOffset());
            assertEquals(STORE_HOST, got.storeHost());
            assertEquals(BORN_HOST, got.bornHost());
            assertEquals(innerBatch, RecordDescriptor.isInnerBatch(got.sysFlag()));
            String offsetId = offsetIds[innerBatch ? 0 : i];
            assertEquals(offsetId, got.offsetMsgId());
            assertEquals(got.commitLogOffset(), MessageIdDescriptor.decode(offsetId).position());
        }
    }

    /**
     * The properties string: the engine's buffer scan finds every pair the client wrote, and the pairs the engine
     * appends to a client's string read back on the client beside the client's own.
     */
    @Property(tries = 200)
    void shouldReadPropertiesTheOtherSideWrote(@ForAll("messages") List<Message> messages,
                                               @ForAll("values") String clusterName) {
        Message message = messages.get(0);
        EncodedMessage encoded = BatchEntryWriter.encode(message, KEYS);
        BatchBodyDescriptor.Entry entry = BatchBodyDescriptor.entries(ByteBuffer.wrap(encoded.entry())).next();
        UnsafeBuffer view = new UnsafeBuffer(encoded.entry());
        Map<String, String> written = new LinkedHashMap<>(message.properties());
        written.put(MessageProperties.UNIQ_KEY, encoded.uniqKey());
        if (message.tags() != null) {
            written.put(MessageProperties.TAGS, message.tags());
        }
        if (message.keys() != null) {
            written.put(MessageProperties.KEYS, message.keys());
        }
        for (Map.Entry<String, String> pair : written.entrySet()) {
            long found = MessageProperties.findValue(view, entry.propertiesIndex(), entry.propertiesLength(),
                    MessageProperties.nameBytes(pair.getKey()));
            assertTrue(found != MessageProperties.NOT_FOUND, pair.getKey());
            byte[] value = new byte[MessageProperties.valueLength(found)];
            view.getBytes(MessageProperties.valueIndex(found), value);
            assertEquals(pair.getValue(), new String(value, StandardCharsets.UTF_8));
        }

        String clientText = entry.properties(ByteBuffer.wrap(encoded.entry()));
        String brokerText = MessageProperties.append(clientText, MessageProperties.CLUSTER, clusterName);
        Map<String, String> onClient = new LazyProperties(brokerText);
        assertEquals(clusterName, onClient.get(MessageProperties.CLUSTER));
        written.forEach((name, value) -> assertEquals(value, onClient.get(name)));
        assertNull(onClient.get(MessageProperties.DELAY));
    }

    /**
     * The message ids: the offset id the engine makes for a record is the one the client derives from the record's
     * store host, and both decode to the record's position; a UNIQ_KEY carries the address it was made with.
     */
    @Property(tries = 300)
    void shouldAgreeOnMessageIds(@ForAll @Size(min = 4, max = 4) List<Byte> ipv4,
                                 @ForAll @Size(min = 16, max = 16) List<Byte> ipv6, @ForAll boolean useIpv6,
                                 @ForAll @IntRange(min = 0, max = 65535) int port,
                                 @ForAll @LongRange(min = 0) long position) throws Exception {
        byte[] address = bytes(useIpv6 ? ipv6 : ipv4);
        InetSocketAddress host = new InetSocketAddress(InetAddress.getByAddress(address), port);
        String engineId = MessageIdDescriptor.offsetMsgId(host, position);
        String clientId = MessageIdDescriptor.offsetMsgId(address, port, position);
        assertEquals(engineId, clientId);
        assertEquals(useIpv6 ? MessageIdDescriptor.IPV6_ID_LENGTH : MessageIdDescriptor.IPV4_ID_LENGTH,
                clientId.length());
        MessageIdDescriptor.OffsetMsgId decoded = MessageIdDescriptor.decode(clientId);
        assertEquals(position, decoded.position());
        assertEquals(port, decoded.storeHost().getPort());
        assertArrayEquals(address, decoded.storeHost().getAddress().getAddress());

        UniqKeyGenerator keys = new UniqKeyGenerator(address, 7, 11, () -> 1_750_000_000_000L, ZoneId.of("UTC"));
        String key = keys.next();
        assertEquals((address.length + 12) * 2, key.length());
        assertEquals(clientId.substring(0, address.length * 2), key.substring(0, address.length * 2));
    }

    private static byte[] storedBytes(AppendResult stored) {
        byte[] bytes = new byte[0];
        for (int r = 0; r < stored.recordCount(); r++) {
            long position = stored.recordPosition(r);
            long end = r + 1 < stored.recordCount() ? stored.recordPosition(r + 1) : stored.nextPosition();
            ReadResult read = log.readRecord(position, (int) (end - position));
            assertTrue(read.isFound(), read.status().toString());
            ByteBuffer buffer = read.buffer();
            byte[] record = new byte[buffer.remaining()];
            buffer.get(record);
            byte[] joined = new byte[bytes.length + record.length];
            System.arraycopy(bytes, 0, joined, 0, bytes.length);
            System.arraycopy(record, 0, joined, bytes.length, record.length);
            bytes = joined;
        }
        return bytes;
    }

    private static byte[] bytes(List<Byte> list) {
        byte[] out = new byte[list.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = list.get(i);
        }
        return out;
    }

    @Provide
    Arbitrary<String> values() {
        return MessageArbitraries.values();
    }

    @Provide
    Arbitrary<List<Message>> messages() {
        return MessageArbitraries.messages(QUEUE.topic());
    }
}
