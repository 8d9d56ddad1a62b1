package io.sluice.format;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;
import java.util.zip.CRC32;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The CommitLog record layout as Apache RocketMQ 5 writes it: the fixed fields, the host fields that grow with the
 * IPv6 flags, the topic length that grows with MAGIC_V2, and BODYCRC.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class RecordDescriptorTest {

    @Test
    void theFixedHeaderMatchesApache() {
        // TOTALSIZE 4, MAGIC 4, BODYCRC 4, QUEUEID 4, FLAG 4, QUEUEOFFSET 8, PHYSICALOFFSET 8, SYSFLAG 4,
        // BORNTIMESTAMP 8, BORNHOST 8, STORETIMESTAMP 8, STOREHOST 8, RECONSUMETIMES 4, PREPARED OFFSET 8,
        // BODY length 4, TOPIC length 1, PROPERTIES length 2: 91 bytes with everything empty.
        assertEquals(91, RecordDescriptor.MIN_RECORD_BYTES);
        assertEquals(56, RecordDescriptor.storeTimestampOffset(0));
        assertEquals(64, RecordDescriptor.storeHostOffset(0));
        assertEquals(72, RecordDescriptor.reconsumeTimesOffset(0));
        assertEquals(76, RecordDescriptor.preparedTransactionOffsetOffset(0));
        assertEquals(84, RecordDescriptor.bodyLengthOffset(0));
    }

    @Property(tries = 200)
    void ipv6HostsWidenTheirFieldsByTwelveBytesEach(@ForAll boolean bornV6, @ForAll boolean storeV6,
                                                    @ForAll @IntRange(max = 0x7FF) int otherBits) {
        int sysFlag = otherBits & ~(RecordDescriptor.BORNHOST_V6_FLAG | RecordDescriptor.STOREHOST_V6_FLAG)
                | (bornV6 ? RecordDescriptor.BORNHOST_V6_FLAG : 0) | (storeV6 ? RecordDescriptor.STOREHOST_V6_FLAG : 0);
        int widened = (bornV6 ? 12 : 0) + (storeV6 ? 12 : 0);
        assertEquals(56 + (bornV6 ? 12 : 0), RecordDescriptor.storeTimestampOffset(sysFlag));
        assertEquals(84 + widened, RecordDescriptor.bodyLengthOffset(sysFlag));
        assertEquals(91 + widened, RecordDescriptor.recordBytes(sysFlag, RecordDescriptor.MAGIC_V1, 0, 0, 0));
    }

    @Property(tries = 200)
    void aRecordIsItsHeaderPlusItsVariableParts(@ForAll @IntRange(max = 1 << 20) int bodyBytes,
                                                @ForAll @IntRange(min = 1, max = 255) int topicBytes,
                                                @ForAll @IntRange(max = Short.MAX_VALUE) int propertiesBytes) {
        int magic = RecordDescriptor.magicForTopic(topicBytes);
        assertEquals(topicBytes > 127 ? RecordDescriptor.MAGIC_V2 : RecordDescriptor.MAGIC_V1, magic);
        long expected = 91 + bodyBytes + topicBytes + propertiesBytes + (magic == RecordDescriptor.MAGIC_V2 ? 1 : 0);
        assertEquals(expected, RecordDescriptor.recordBytes(0, magic, bodyBytes, topicBytes, propertiesBytes));
        assertTrue(expected - bodyBytes <= RecordDescriptor.MAX_RECORD_OVERHEAD_BYTES,
                "what is not body fits the overhead the segment size allows for");
    }

    @Test
    void onlyTheTwoMessageMagicsAreMessages() {
        assertTrue(RecordDescriptor.isMessageMagic(RecordDescriptor.MAGIC_V1));
        assertTrue(RecordDescriptor.isMessageMagic(RecordDescriptor.MAGIC_V2));
        assertFalse(RecordDescriptor.isMessageMagic(RecordDescriptor.MAGIC_BLANK));
        assertFalse(RecordDescriptor.isMessageMagic(0));
    }

    @Test
    void anInnerBatchNeedsBothFlags() {
        int both = RecordDescriptor.NEED_UNWRAP_FLAG | RecordDescriptor.INNER_BATCH_FLAG;
        assertTrue(RecordDescriptor.isInnerBatch(both));
        assertFalse(RecordDescriptor.isInnerBatch(RecordDescriptor.INNER_BATCH_FLAG));
        assertFalse(RecordDescriptor.isInnerBatch(RecordDescriptor.NEED_UNWRAP_FLAG));
        assertEquals(RecordDescriptor.TRANSACTION_COMMIT_TYPE,
                RecordDescriptor.transactionType(RecordDescriptor.TRANSACTION_COMMIT_TYPE | 0x13));
    }

    @Property(tries = 200)
    void bodyCrcIsCrc32WithoutTheSignBitWhereverTheBodyLies(@ForAll @Size(max = 300) byte[] body,
                                                          @ForAll @IntRange(max = 16) int before,
                                                          @ForAll boolean direct) {
        CRC32 crc = new CRC32();
        crc.update(body);
        int expected = (int) crc.getValue() & 0x7FFFFFFF;
        ByteBuffer buffer = direct ? ByteBuffer.allocateDirect(before + body.length + 3)
                : ByteBuffer.allocate(before + body.length + 3);
        buffer.position(before);
        buffer.put(body);
        assertEquals(expected, RecordDescriptor.bodyCrc(buffer, before, body.length));
        buffer.position(before).limit(before + body.length);
        assertEquals(expected, RecordDescriptor.bodyCrc(buffer));
        assertEquals(before, buffer.position(), "the body's buffer is left as it was");
    }
}
