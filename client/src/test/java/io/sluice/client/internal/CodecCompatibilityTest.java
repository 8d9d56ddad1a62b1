package io.sluice.client.internal;

import io.sluice.format.MessageIdDescriptor;
import io.sluice.format.UniqKeyGenerator;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.client.Message;
import io.sluice.client.ReceivedMessage;
import io.sluice.remoting.protocol.body.MessageQueue;
import io.sluice.format.BatchBodyDescriptor;
import java.io.ByteArrayOutputStream;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.zip.Deflater;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.apache.rocketmq.common.message.MessageAccessor;
import org.apache.rocketmq.common.message.MessageDecoder;
import org.apache.rocketmq.common.message.MessageExt;
import org.junit.jupiter.api.Test;

/** The client's codecs against the Apache client's and the Sluice store's for the same bytes. */
class CodecCompatibilityTest {
    private static final UniqKeyGenerator KEYS = new UniqKeyGenerator(new byte[] {127, 0, 0, 1}, 4242, 77,
            () -> 1_700_000_000_000L, ZoneId.of("UTC"));
    private static final MessageQueue QUEUE = new MessageQueue("T", "broker-a", 3);

    @Property(tries = 150)
    void shouldEncodeEntriesTheApacheClientAndTheStoreDecode(@ForAll("messages") List<Message> messages)
            throws Exception {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        List<EncodedMessage> encoded = new ArrayList<>();
        for (Message message : messages) {
            EncodedMessage entry = BatchEntryWriter.encode(message, KEYS);
            encoded.add(entry);
            body.write(entry.entry());
        }
        byte[] bytes = body.toByteArray();
        List<org.apache.rocketmq.common.message.Message> apache = MessageDecoder.decodeMessages(ByteBuffer.wrap(bytes));
        Iterator<BatchBodyDescriptor.Entry> store = BatchBodyDescriptor.entries(ByteBuffer.wrap(bytes));
        assertEquals(messages.size(), apache.size());
        for (int i = 0; i < messages.size(); i++) {
            Message expected = messages.get(i);
            org.apache.rocketmq.common.message.Message decoded = apache.get(i);
            assertArrayEquals(expected.body(), decoded.getBody());
            assertEquals(expected.flag(), decoded.getFlag());
            assertEquals(expected.tags(), decoded.getTags());
            assertEquals(expected.keys(), decoded.getKeys());
            assertEquals(expected.waitStoreMsgOk(), decoded.isWaitStoreMsgOK());
            assertEquals(encoded.get(i).uniqKey(), decoded.getProperty("UNIQ_KEY"));
            expected.properties().forEach((name, value) -> assertEquals(value, decoded.getProperty(name)));
            BatchBodyDescriptor.Entry entry = store.next();
            assertEquals(expected.body().length, entry.bodyLength());
            assertEquals(expected.flag(), entry.flag());
        }
        assertTrue(!store.hasNext());
    }

    @Property(tries = 150)
    void shouldDecodeRecordsTheApacheCodecEncodes(@ForAll("messages") List<Message> messages) throws Exception {
        ByteArrayOutputStream records = new ByteArrayOutputStream();
        List<MessageExt> originals = new ArrayList<>();
        long position = 1000;
        for (int i = 0; i < messages.size(); i++) {
            MessageExt ext = apacheRecord(messages.get(i), i, position);
            byte[] record = MessageDecoder.encode(ext, false);
            records.write(record);
            originals.add(ext);
            position += record.length;
        }
        List<ReceivedMessage> decoded = RecordDecoder.decode(records.toByteArray(), QUEUE);
        assertEquals(originals.size(), decoded.size());
        for (int i = 0; i < originals.size(); i++) {
            MessageExt expected = originals.get(i);
            ReceivedMessage actual = decoded.get(i);
            assertArrayEquals(expected.getBody(), actual.body());
            assertEquals(expected.getTopic(), actual.topic());
            assertEquals(expected.getQueueOffset(), actual.queueOffset());
            assertEquals(expected.getCommitLogOffset(), actual.commitLogOffset());
            assertEquals(expected.getFlag(), actual.flag());
            assertEquals(expected.getReconsumeTimes(), actual.reconsumeTimes());
            assertEquals(expected.getBornTimestamp(), actual.bornTimestampMs());
            assertEquals(expected.getStoreTimestamp(), actual.storeTimestampMs());
            assertEquals(expected.getBornHost(), actual.bornHost());
            assertEquals(expected.getStoreHost(), actual.storeHost());
            assertEquals(expected.getProperties(), actual.properties());
            assertEquals(MessageDecoder.createMessageId(expected.getStoreHost(), expected.getCommitLogOffset()),
                    actual.offsetMsgId());
        }
    }

    @Test
    void shouldUnwrapAnInnerBatchWithOneOffsetPerMessage() throws Exception {
        List<Message> messages = List.of(Message.builder("T", "a".getBytes()).tags("x").build(),
                Message.builder("T", "bb".getBytes()).flag(7).build(), Message.of("T", "ccc".getBytes()));
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        for (Message message : messages) {
            body.write(BatchEntryWriter.encode(message, KEYS).entry());
        }
        MessageExt wrapper = apacheRecord(Message.of("T", body.toByteArray()), 0, 4096);
        wrapper.setQueueOffset(40);
        wrapper.setSysFlag(0xC0);
        List<ReceivedMessage> decoded = RecordDecoder.decode(MessageDecoder.encode(wrapper, false), QUEUE);
        assertEquals(3, decoded.size());
        for (int i = 0; i < 3; i++) {
            assertEquals(40 + i, decoded.get(i).queueOffset());
            assertArrayEquals(messages.get(i).body(), decoded.get(i).body());
            assertEquals(4096, decoded.get(i).commitLogOffset());
            assertEquals(3, decoded.get(i).queueId());
        }
        assertEquals("x", decoded.get(0).tags());
        assertEquals(7, decoded.get(1).flag());
    }

    @Test
    void shouldInflateZlibBodies() throws Exception {
        byte[] plain = "hello hello hello hello hello".getBytes();
        Deflater deflater = new Deflater(5);
        deflater.setInput(plain);
        deflater.finish();
        byte[] buffer = new byte[256];
        int length = deflater.deflate(buffer);
        deflater.end();
        byte[] compressed = java.util.Arrays.copyOf(buffer, length);
        MessageExt ext = apacheRecord(Message.of("T", compressed), 0, 0);
        ext.setSysFlag(0x301);
        List<ReceivedMessage> decoded = RecordDecoder.decode(MessageDecoder.encode(ext, false), QUEUE);
        assertArrayEquals(plain, decoded.get(0).body());
        assertEquals(0, decoded.get(0).sysFlag() & 1);
    }

    @Test
    void shouldStopAtGarbageAndKeepTheRecordsBefore() throws Exception {
        byte[] record = MessageDecoder.encode(apacheRecord(Message.of("T", "x".getBytes()), 0, 0), false);
        byte[] withGarbage = java.util.Arrays.copyOf(record, record.length + 120);
        assertEquals(1, RecordDecoder.decode(withGarbage, QUEUE).size());
    }

    @Test
    void shouldBuildOffsetMessageIdsAsApacheDoes() {
        InetSocketAddress host = new InetSocketAddress("127.0.0.1", 10911);
        String id = MessageIdDescriptor.offsetMsgId(host.getAddress().getAddress(), 10911, 2511);
        assertEquals(MessageDecoder.createMessageId(host, 2511), id);
        assertEquals("7F00000100002A9F00000000000009CF", id);
        assertEquals(2511, MessageIdDescriptor.decode(id).position());
    }

    private static MessageExt apacheRecord(Message message, int i, long position) {
        MessageExt ext = new MessageExt();
        ext.setTopic(message.topic());
        ext.setBody(message.body());
        ext.setFlag(message.flag());
        ext.setQueueId(3);
        ext.setQueueOffset(100 + i);
        ext.setCommitLogOffset(position);
        ext.setBornTimestamp(1_700_000_000_000L + i);
        ext.setStoreTimestamp(1_700_000_000_500L + i);
        ext.setBornHost(new InetSocketAddress("10.1.2.3", 40000 + i));
        ext.setStoreHost(new InetSocketAddress("127.0.0.1", 10911));
        ext.setReconsumeTimes(i % 3);
        if (message.tags() != null) {
            ext.setTags(message.tags());
        }
        if (message.keys() != null) {
            ext.setKeys(message.keys());
        }
        for (Map.Entry<String, String> pair : message.properties().entrySet()) {
            ext.putUserProperty(pair.getKey(), pair.getValue());
        }
        MessageAccessor.putProperty(ext, "UNIQ_KEY", KEYS.next());
        return ext;
    }

    @Provide
    Arbitrary<List<Message>> messages() {
        return MessageArbitraries.messages("Topic_1");
    }
}
