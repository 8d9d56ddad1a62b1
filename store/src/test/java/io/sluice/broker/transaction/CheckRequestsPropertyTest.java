package io.sluice.broker.transaction;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.broker.schedule.StoredMessage;
import io.sluice.format.MessageProperties;
import io.sluice.remoting.protocol.RemotingCommand;
import io.sluice.remoting.protocol.RequestCode;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.apache.rocketmq.common.message.MessageAccessor;
import org.apache.rocketmq.common.message.MessageDecoder;
import org.apache.rocketmq.common.message.MessageExt;

/**
 * The body of CHECK_TRANSACTION_STATE: a half message's record, written by the Apache encoder, comes out with its
 * real topic and queue in place of the half topic's and every other field as it was, as the Apache client's decoder
 * reads it, wherever the record lies in its buffer; a real topic too long for the record's topic field leaves the
 * record as it is.
 */
class CheckRequestsPropertyTest {

    private static final InetSocketAddress BORN = new InetSocketAddress("10.0.0.7", 50_000);
    private static final InetSocketAddress STORE = new InetSocketAddress("10.0.0.1", 10_911);

    @Property(tries = 200)
    void theRecordCarriesTheRealQueueAndEverythingElseUnchanged(
            @ForAll("topics") String realTopic, @ForAll @IntRange(max = 255) int realQueueId,
            @ForAll @Size(max = 300) byte[] body, @ForAll("properties") Map<String, String> properties,
            @ForAll @IntRange(max = 64) int at) throws Exception {
        MessageExt half = half(body, properties);
        byte[] record = MessageDecoder.encode(half, false);
        ByteBuffer buffer = ByteBuffer.allocate(at + record.length + 16);
        buffer.position(at);
        buffer.put(record);
        buffer.position(at);

        byte[] rewritten = CheckRequests.withRealQueue(buffer, new HalfMessages.RealQueue(realTopic, realQueueId));
        assertEquals(at, buffer.position(), "the record's buffer is not moved");
        MessageExt decoded = MessageDecoder.decode(ByteBuffer.wrap(rewritten), true, false);
        assertEquals(realTopic, decoded.getTopic());
        assertEquals(realQueueId, decoded.getQueueId());
        assertEquals(rewritten.length, decoded.getStoreSize());
        assertArrayEquals(body, decoded.getBody() == null ? new byte[0] : decoded.getBody(),
                "the Apache decoder reads an empty body as null");
        assertEquals(properties, withoutBookkeeping(decoded.getProperties()));
        assertEquals(half.getQueueOffset(), decoded.getQueueOffset());
        assertEquals(half.getCommitLogOffset(), decoded.getCommitLogOffset());
        assertEquals(half.getBornTimestamp(), decoded.getBornTimestamp());
        assertEquals(half.getStoreTimestamp(), decoded.getStoreTimestamp());
        assertEquals(BORN, decoded.getBornHost());
        assertEquals(STORE, decoded.getStoreHost());
        assertEquals(half.getReconsumeTimes(), decoded.getReconsumeTimes());
        assertEquals(half.getFlag(), decoded.getFlag());
    }

    @Example
    void aRealTopicTooLongForTheFieldLeavesTheRecordAsItIs() throws Exception {
        byte[] record = MessageDecoder.encode(half(new byte[] {7}, Map.of("k", "v")), false);
        String tooLong = "T".repeat(128);
        byte[] same = CheckRequests.withRealQueue(ByteBuffer.wrap(record), new HalfMessages.RealQueue(tooLong, 3));
        assertArrayEquals(record, same);
    }

    @Example
    void theRequestIsAOnewayCheckNamingTheHalfMessage() throws Exception {
        MessageExt half = half(new byte[] {1, 2}, Map.of(MessageProperties.UNIQ_KEY, "7F0000010000ABCD"));
        byte[] record = MessageDecoder.encode(half, false);
        StoredMessage stored = StoredMessage.decode(ByteBuffer.wrap(record));
        RemotingCommand request = CheckRequests.build(stored, ByteBuffer.wrap(record),
                new HalfMessages.RealQueue("Orders", 2), "broker-a");
        assertEquals(RequestCode.CHECK_TRANSACTION_STATE, request.code());
        assertTrue(request.isOneway());
        assertEquals("Orders", request.extField("topic"));
        assertEquals(Long.toString(half.getQueueOffset()), request.extField("tranStateTableOffset"));
        assertEquals(Long.toString(half.getCommitLogOffset()), request.extField("commitLogOffset"));
        assertEquals("7F0000010000ABCD", request.extField("msgId"));
        assertEquals("7F0000010000ABCD", request.extField("transactionId"));
        assertEquals("broker-a", request.extField("brokerName"));
        MessageExt body = MessageDecoder.decode(ByteBuffer.wrap(request.body()), true, false);
        assertEquals("Orders", body.getTopic());
        assertEquals(2, body.getQueueId());

        StoredMessage noKey = StoredMessage.decode(ByteBuffer.wrap(MessageDecoder.encode(
                half(new byte[] {1}, Map.of()), false)));
        RemotingCommand anonymous = CheckRequests.build(noKey, ByteBuffer.wrap(MessageDecoder.encode(
                half(new byte[] {1}, Map.of()), false)), new HalfMessages.RealQueue("Orders", 0), "broker-a");
        assertNull(anonymous.extField("msgId"), "no UNIQ_KEY, no message id");
    }

    private static MessageExt half(byte[] body, Map<String, String> properties) {
        MessageExt half = new MessageExt();
        half.setTopic(HalfMessages.HALF_TOPIC);
        half.setQueueId(0);
        half.setBody(body);
        properties.forEach((key, value) -> MessageAccessor.putProperty(half, key, value));
        half.setFlag(body.length % 5);
        half.setQueueOffset(1_000L + body.length);
        half.setCommitLogOffset(1L << 33);
        half.setSysFlag(0);
        half.setBornTimestamp(1_700_000_000_000L);
        half.setStoreTimestamp(1_700_000_000_123L);
        half.setBornHost(BORN);
        half.setStoreHost(STORE);
        half.setReconsumeTimes(body.length % 3);
        return half;
    }

    private static Map<String, String> withoutBookkeeping(Map<String, String> properties) {
        Map<String, String> user = properties == null ? new HashMap<>() : new HashMap<>(properties);
        user.keySet().removeIf(key -> Arrays.asList("MIN_OFFSET", "MAX_OFFSET", "CONSUME_START_TIME").contains(key));
        return user;
    }

    @Provide
    Arbitrary<String> topics() {
        return Arbitraries.strings().withChars("abcXYZ019_-%").ofMinLength(1).ofMaxLength(127);
    }

    @Provide
    Arbitrary<Map<String, String>> properties() {
        return Arbitraries.maps(Arbitraries.strings().withChars("abkXY").ofMinLength(1).ofMaxLength(6),
                Arbitraries.strings().withChars("xyz 09é").ofMinLength(1).ofMaxLength(10)).ofMaxSize(4);
    }
}
