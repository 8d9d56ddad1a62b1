package io.sluice.store.log;

import io.sluice.format.MessageIdDescriptor;
import io.sluice.format.RecordDescriptor;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.stream.Stream;
import org.agrona.concurrent.CachedEpochClock;
import org.apache.rocketmq.common.message.MessageDecoder;
import org.apache.rocketmq.common.message.MessageExt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** A record written by the log has every field at the offset {@link RecordDescriptor} documents. */
class RecordLayoutTest {

    @TempDir
    Path dir;

    static Stream<Arguments> variants() {
        String longRetryTopic = "%RETRY%" + "g".repeat(193); // 200 bytes: needs v2
        return Stream.of(
                Arguments.of("v1, IPv4 hosts", "LayoutTopic", LogFixture.BORN_HOST, LogFixture.STORE_HOST),
                Arguments.of("v1, IPv6 hosts", "LayoutTopic", LogFixture.ipv6(40000), LogFixture.ipv6(10911)),
                Arguments.of("v1, IPv6 born, IPv4 store", "LayoutTopic", LogFixture.ipv6(40000),
                        LogFixture.STORE_HOST),
                Arguments.of("v2, IPv4 hosts", longRetryTopic, LogFixture.BORN_HOST, LogFixture.STORE_HOST),
                Arguments.of("v2, IPv6 hosts", longRetryTopic, LogFixture.ipv6(40000), LogFixture.ipv6(10911)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("variants")
    void shouldPlaceEveryFieldAtItsDocumentedOffset(String name, String topic, InetSocketAddress bornHost,
                                                    InetSocketAddress storeHost) throws IOException {
        CachedEpochClock clock = new CachedEpochClock();
        clock.update(1_700_000_123_456L);
        LogSettings settings = LogSettings.builder(dir, storeHost).segmentBytes(LogFixture.SEGMENT_BYTES)
                .maxMessageBytes(LogFixture.MAX_MESSAGE_BYTES).build();
        byte[] body = "hello layout".getBytes(StandardCharsets.UTF_8);
        String props = "TAGS\u0001TagA\u0002KEYS\u0001k1 k2\u0002";
        try (CommitLog log = LogFixture.openRecovered(settings, LogEnvironment.system().withEpochClock(clock))) {
            LogFixture.appendOk(log, LogFixture.draft("Warmup", 0, "x"));
            MessageDraft draft = MessageDraft.builder(topic, 3).flag(7).sysFlag(0).bornTimestampMs(1234L)
                    .bornHost(bornHost).reconsumeTimes(2).body(body).propertiesText(props).build();
            AppendResult r = LogFixture.appendOk(log, draft);
            ByteBuffer b = log.readRecord(r.position(), r.wroteBytes()).buffer();

            boolean bornV6 = bornHost.getAddress().getAddress().length == 16;
            boolean storeV6 = storeHost.getAddress().getAddress().length == 16;
            int bornBytes = bornV6 ? 20 : 8;
            int storeBytes = storeV6 ? 20 : 8;
            int sysFlag = (bornV6 ? 0x10 : 0) | (storeV6 ? 0x20 : 0);
            boolean v2 = topic.length() > 127;
            int expectedSize = 4 + 4 + 4 + 4 + 4 + 8 + 8 + 4 + 8 + bornBytes + 8 + storeBytes + 4 + 8
                    + 4 + body.length + (v2 ? 2 : 1) + topic.length() + 2 + props.length();

            assertEquals(expectedSize, r.wroteBytes());
            assertEquals(expectedSize, b.getInt(0), "TOTALSIZE");
            assertEquals(v2 ? 0xDAA320AB : 0xDAA320A7, b.getInt(4), "MAGICCODE");
            assertEquals(RecordDescriptor.bodyCrc(ByteBuffer.wrap(body)), b.getInt(8), "BODYCRC");
            assertEquals(3, b.getInt(12), "QUEUEID");
            assertEquals(7, b.getInt(16), "FLAG");
            assertEquals(0L, b.getLong(20), "QUEUEOFFSET");
            assertEquals(r.position(), b.getLong(28), "PHYSICALOFFSET");
            assertEquals(sysFlag, b.getInt(36), "SYSFLAG");
            assertEquals(1234L, b.getLong(40), "BORNTIMESTAMP");
            assertArrayEquals(MessageIdDescriptor.hostBytes(bornHost), slice(b, 48, bornBytes), "BORNHOST");
            int at = 48 + bornBytes;
            assertEquals(1_700_000_123_456L, b.getLong(at), "STORETIMESTAMP");
            assertArrayEquals(MessageIdDescriptor.hostBytes(storeHost), slice(b, at + 8, storeBytes), "STOREHOST");
            at += 8 + storeBytes;
            assertEquals(2, b.getInt(at), "RECONSUMETIMES");
            assertEquals(0L, b.getLong(at + 4), "PREPARED TRANSACTION OFFSET");
            assertEquals(body.length, b.getInt(at + 12), "BODYLENGTH");
            assertArrayEquals(body, slice(b, at + 16, body.length), "BODY");
            at += 16 + body.length;
            int topicLength = v2 ? b.getShort(at) : b.get(at);
            assertEquals(topic.length(), topicLength, "TOPICLENGTH");
            at += v2 ? 2 : 1;
            assertEquals(topic, new String(slice(b, at, topic.length()), StandardCharsets.UTF_8), "TOPIC");
            at += topic.length();
            assertEquals(props.length(), b.getShort(at), "PROPERTIESLENGTH");
            assertEquals(props, new String(slice(b, at + 2, props.length()), StandardCharsets.UTF_8), "PROPERTIES");
            assertEquals(expectedSize, at + 2 + props.length());
            if (!bornV6 && !storeV6 && !v2) {
                assertEquals(56, RecordDescriptor.storeTimestampOffset(sysFlag));
                assertEquals(64, RecordDescriptor.storeHostOffset(sysFlag));
                assertEquals(72, RecordDescriptor.reconsumeTimesOffset(sysFlag));
                assertEquals(76, RecordDescriptor.preparedTransactionOffsetOffset(sysFlag));
                assertEquals(84, RecordDescriptor.bodyLengthOffset(sysFlag));
            }

            MessageExt apache = MessageDecoder.decode(b.duplicate(), true, true);
            assertEquals(topic, apache.getTopic());
            assertEquals(3, apache.getQueueId());
            assertEquals(7, apache.getFlag());
            assertEquals(0L, apache.getQueueOffset());
            assertEquals(r.position(), apache.getCommitLogOffset());
            assertEquals(sysFlag, apache.getSysFlag());
            assertEquals(1234L, apache.getBornTimestamp());
            assertEquals(bornHost, apache.getBornHost());
            assertEquals(1_700_000_123_456L, apache.getStoreTimestamp());
            assertEquals(storeHost, apache.getStoreHost());
            assertEquals(2, apache.getReconsumeTimes());
            assertEquals(expectedSize, apache.getStoreSize());
            assertEquals(RecordDescriptor.bodyCrc(ByteBuffer.wrap(body)), apache.getBodyCRC());
            assertArrayEquals(body, apache.getBody());
            assertEquals("TagA", apache.getTags());
            assertEquals("k1 k2", apache.getKeys());
            assertEquals(r.msgIds(), apache.getMsgId(), "offset message id as the client derives it");
        }
    }

    @Test
    void shouldReproduceTheRecordObservedFromAnApacheBroker() throws IOException {
        // A 266-byte record as Apache stores it: topic RetryTopic, body "retry-me", 157 property bytes.
        CachedEpochClock clock = new CachedEpochClock();
        clock.update(0x000001a1fd4ec96bL);
        String props = "MSG_REGION\u0001DefaultRegion\u0002CLUSTER\u0001DefaultCluster\u0002TAGS\u0001TagB\u0002"
                + "KEYS\u0001KEY1\u0002WAIT\u0001true\u0002TRACE_ON\u0001true\u0002UNIQ_KEY\u0001";
        props = props + "F".repeat(157 - props.length());
        LogSettings settings = LogFixture.settings(dir).build();
        try (CommitLog log = LogFixture.openRecovered(settings, LogEnvironment.system().withEpochClock(clock))) {
            MessageDraft draft = MessageDraft.builder("RetryTopic", 0).bornTimestampMs(0x000001a1fd4ec956L)
                    .bornHost(LogFixture.BORN_HOST).body("retry-me".getBytes(StandardCharsets.UTF_8))
                    .propertiesText(props).build();
            AppendResult r = LogFixture.appendOk(log, draft);
            assertEquals(266, r.wroteBytes());
            byte[] record = LogFixture.bytes(log.readRecord(0, 266).buffer());
            String expected = "0000010a" + "daa320a7" + "0a516c26" + "00000000" + "00000000"
                    + "0000000000000000" + "0000000000000000" + "00000000" + "000001a1fd4ec956"
                    + "7f000001" + "0000b5ae" + "000001a1fd4ec96b" + "7f000001" + "00002a9f"
                    + "00000000" + "0000000000000000" + "00000008" + "72657472792d6d65" + "0a"
                    + HexFormat.of().formatHex("RetryTopic".getBytes(StandardCharsets.US_ASCII)) + "009d";
            assertEquals(expected, HexFormat.of().formatHex(record, 0, expected.length() / 2));
            assertEquals("7F00000100002A9F0000000000000000", r.msgIds());
        }
    }

    private static byte[] slice(ByteBuffer b, int index, int length) {
        byte[] out = new byte[length];
        b.get(index, out);
        return out;
    }
}
