package io.sluice.format;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.zip.CRC32;

/**
 * Layout of one CommitLog record, byte for byte as Apache RocketMQ stores it. Pull responses ship these bytes
 * unchanged, so this layout is also a wire format. All integers are big-endian.
 *
 * <pre>
 *  offset (IPv4 hosts)  field                        width
 *  ------------------   --------------------------   -------------------------------------------
 *    0                  TOTALSIZE                    int    whole record, these 4 bytes included
 *    4                  MAGICCODE                    int    v1 0xDAA320A7 | v2 0xDAA320AB
 *    8                  BODYCRC                      int    CRC32(body) &amp; 0x7FFFFFFF
 *   12                  QUEUEID                      int
 *   16                  FLAG                         int    producer's Message.flag
 *   20                  QUEUEOFFSET                  long   queue offset (inner batch: base offset)
 *   28                  PHYSICALOFFSET               long   this record's position in the CommitLog
 *   36                  SYSFLAG                      int    see the *_FLAG constants
 *   40                  BORNTIMESTAMP                long   producer clock, ms
 *   48                  BORNHOST                     8|20   4|16-byte address + int port (0x10 = IPv6)
 *   56 (b = born bytes) STORETIMESTAMP     at 48+b   long   broker clock, ms
 *   64                  STOREHOST          at 56+b   8|20   4|16-byte address + int port (0x20 = IPv6)
 *   72 (s = store)      RECONSUMETIMES     at 56+b+s int
 *   76                  PREPARED TX OFFSET at 60+b+s long
 *   84                  BODYLENGTH         at 68+b+s int    n
 *   88                  BODY                         n bytes
 *   88+n                TOPICLENGTH                  v1: byte, v2: short      t
 *   89+n (v1)           TOPIC                        t bytes (UTF-8)
 *   89+n+t              PROPERTIESLENGTH             short  p (0..32767)
 *   91+n+t              PROPERTIES                   p bytes: (name 0x01 value 0x02)*
 *
 *  End of a segment (the record that follows the last record of every sealed segment):
 *    0                  TOTALSIZE                    int    bytes from here to the segment end (&gt;= 8)
 *    4                  MAGICCODE                    int    BLANK 0xCBD43194
 * </pre>
 *
 * <p>v2 differs from v1 only in the 2-byte topic length and is used only for topics longer than 127 bytes.
 * A record is valid only if TOTALSIZE equals the size recomputed from its length fields.
 *
 * <p><b>Publish order.</b> Records are written over zero bytes, and TOTALSIZE is the last field stored, after a
 * release fence: every other byte of the record (of the blank record: MAGICCODE) first. For an unpacked batch,
 * several records copied at once, it is the first record's TOTALSIZE that is stored last; the later records are
 * complete before it. A reader that finds TOTALSIZE 0 sees the end of the data, so a copy cut short by a process
 * crash reads as absent (a whole unpacked batch too) rather than as a record with a damaged tail. Readers that
 * stay below the log's published written position never see a record in the making at all.
 *
 * <p>Stateless; thread-safe.
 */
public final class RecordDescriptor {

    /** Byte order of every multi-byte field. */
    public static final ByteOrder BYTE_ORDER = ByteOrder.BIG_ENDIAN;

    /** Magic of a version 1 record (1-byte topic length). */
    public static final int MAGIC_V1 = 0xDAA320A7;
    /** Magic of a version 2 record (2-byte topic length). */
    public static final int MAGIC_V2 = 0xDAA320AB;
    /** Magic of the end-of-segment blank record. */
    public static final int MAGIC_BLANK = 0xCBD43194;
    /** The blank record's size when it is written: TOTALSIZE + MAGICCODE. */
    public static final int END_OF_SEGMENT_MIN_BLANK_BYTES = 8;
    /** Mask applied to the CRC32 of the body (the stored value is never negative). */
    public static final int BODY_CRC_MASK = 0x7FFFFFFF;
    /** Longest topic a v1 record can carry (the 1-byte length is read signed). */
    public static final int MAX_V1_TOPIC_BYTES = 127;
    /** Longest topic any record may carry. */
    public static final int MAX_TOPIC_BYTES = 255;
    /** Longest properties string (the length is a signed short). */
    public static final int MAX_PROPERTIES_BYTES = Short.MAX_VALUE;
    /**
     * Bound on a record's size beyond its body: fixed fields with IPv6 hosts (115), the longest topic
     * (2 + 255) and the longest properties (2 + 32767) add at most 33 141 bytes; 64 KiB keeps Apache's margin.
     */
    public static final int MAX_RECORD_OVERHEAD_BYTES = 64 * 1024;

    public static final int TOTAL_SIZE_OFFSET = 0;
    public static final int MAGIC_OFFSET = 4;
    public static final int BODY_CRC_OFFSET = 8;
    public static final int QUEUE_ID_OFFSET = 12;
    public static final int FLAG_OFFSET = 16;
    public static final int QUEUE_OFFSET_OFFSET = 20;
    public static final int PHYSICAL_OFFSET_OFFSET = 28;
    public static final int SYS_FLAG_OFFSET = 36;
    public static final int BORN_TIMESTAMP_OFFSET = 40;
    public static final int BORN_HOST_OFFSET = 48;
    /** Smallest possible record: IPv4 hosts, empty body, 1-byte topic length, empty topic and properties. */
    public static final int MIN_RECORD_BYTES = (int) recordBytes(0, MAGIC_V1, 0, 0, 0);

    /** Bytes of an IPv4 host field: 4-byte address + int port. */
    public static final int IPV4_HOST_BYTES = 8;
    /** Bytes of an IPv6 host field: 16-byte address + int port. */
    public static final int IPV6_HOST_BYTES = 20;

    // SYSFLAG bits.
    /** Body compressed by the producer; the broker never decompresses. */
    public static final int COMPRESSED_FLAG = 0x1;
    /** Topic uses the MULTI_TAG filter type (informational). */
    public static final int MULTI_TAGS_FLAG = 0x2;
    /** Bits 2-3: the transaction type. */
    public static final int TRANSACTION_TYPE_MASK = 0xC;
    public static final int TRANSACTION_NOT_TYPE = 0x0;
    public static final int TRANSACTION_PREPARED_TYPE = 0x4;
    public static final int TRANSACTION_COMMIT_TYPE = 0x8;
    public static final int TRANSACTION_ROLLBACK_TYPE = 0xC;
    /** BORNHOST is IPv6 (20 bytes). */
    public static final int BORNHOST_V6_FLAG = 0x10;
    /** STOREHOST is IPv6 (20 bytes). */
    public static final int STOREHOST_V6_FLAG = 0x20;
    /** The consumer must unwrap the body (inner batch). */
    public static final int NEED_UNWRAP_FLAG = 0x40;
    /** The record is a BatchCQ inner batch. */
    public static final int INNER_BATCH_FLAG = 0x80;
    /** Bits 8-10: compression type (1 LZ4, 2 ZSTD, 3 ZLIB). */
    public static final int COMPRESSION_TYPE_MASK = 0x700;
    public static final int COMPRESSION_TYPE_SHIFT = 8;
    /** Compression type ZLIB; a compressed body with type 0 is ZLIB too (older clients). */
    public static final int COMPRESSION_ZLIB = 3;

    private static final ThreadLocal<CRC32> CRC = ThreadLocal.withInitial(CRC32::new);

    private RecordDescriptor() {
    }

    /** Bytes of the BORNHOST field for {@code sysFlag}. */
    public static int bornHostBytes(int sysFlag) {
        return (sysFlag & BORNHOST_V6_FLAG) != 0 ? IPV6_HOST_BYTES : IPV4_HOST_BYTES;
    }

    /** Bytes of the STOREHOST field for {@code sysFlag}. */
    public static int storeHostBytes(int sysFlag) {
        return (sysFlag & STOREHOST_V6_FLAG) != 0 ? IPV6_HOST_BYTES : IPV4_HOST_BYTES;
    }

    /** Offset of STORETIMESTAMP. */
    public static int storeTimestampOffset(int sysFlag) {
        return BORN_HOST_OFFSET + bornHostBytes(sysFlag);
    }

    /** Offset of STOREHOST. */
    public static int storeHostOffset(int sysFlag) {
        return storeTimestampOffset(sysFlag) + Long.BYTES;
    }

    /** Offset of RECONSUMETIMES. */
    public static int reconsumeTimesOffset(int sysFlag) {
        return storeHostOffset(sysFlag) + storeHostBytes(sysFlag);
    }

    /** Offset of PREPARED TRANSACTION OFFSET. */
    public static int preparedTransactionOffsetOffset(int sysFlag) {
        return reconsumeTimesOffset(sysFlag) + Integer.BYTES;
    }

    /** Offset of BODYLENGTH; the body starts 4 bytes later. */
    public static int bodyLengthOffset(int sysFlag) {
        return preparedTransactionOffsetOffset(sysFlag) + Long.BYTES;
    }

    /** True for the two message magics (not for BLANK). */
    public static boolean isMessageMagic(int magic) {
        return magic == MAGIC_V1 || magic == MAGIC_V2;
    }

    /** Width of the TOPICLENGTH field: 1 for v1, 2 for v2. */
    public static int topicLengthBytes(int magic) {
        return magic == MAGIC_V2 ? Short.BYTES : Byte.BYTES;
    }

    /** The magic a topic of {@code topicBytes} bytes is stored with: v1 unless it is longer than 127. */
    public static int magicForTopic(int topicBytes) {
        return topicBytes > MAX_V1_TOPIC_BYTES ? MAGIC_V2 : MAGIC_V1;
    }

    /** True when a record is a BatchCQ inner batch that consumers unwrap into its messages. */
    public static boolean isInnerBatch(int sysFlag) {
        return (sysFlag & (NEED_UNWRAP_FLAG | INNER_BATCH_FLAG)) == (NEED_UNWRAP_FLAG | INNER_BATCH_FLAG);
    }

    /** The transaction type bits of {@code sysFlag}. */
    public static int transactionType(int sysFlag) {
        return sysFlag & TRANSACTION_TYPE_MASK;
    }

    /**
     * TOTALSIZE of a record with these lengths. Computed in {@code long} so that garbage lengths read during
     * recovery cannot overflow.
     */
    public static long recordBytes(int sysFlag, int magic, long bodyBytes, long topicBytes, long propertiesBytes) {
        return bodyLengthOffset(sysFlag) + Integer.BYTES + bodyBytes
                + topicLengthBytes(magic) + topicBytes
                + Short.BYTES + propertiesBytes;
    }

    /** The masked CRC32 of the bytes between {@code body.position()} and its limit; the buffer is not moved. */
    public static int bodyCrc(ByteBuffer body) {
        return bodyCrc(body, body.position(), body.remaining());
    }

    /**
     * The masked CRC32 of {@code length} bytes of {@code buffer} from absolute index {@code index}; the buffer is
     * not moved. Both forms run the JVM's CRC32 intrinsic: on the array of a heap buffer, on the address of a
     * direct one (through a slice, which the compiler usually does not even allocate).
     */
    public static int bodyCrc(ByteBuffer buffer, int index, int length) {
        CRC32 crc = CRC.get();
        crc.reset();
        if (buffer.hasArray()) {
            crc.update(buffer.array(), buffer.arrayOffset() + index, length);
        } else {
            crc.update(buffer.slice(index, length));
        }
        return (int) crc.getValue() & BODY_CRC_MASK;
    }
}
