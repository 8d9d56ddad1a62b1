package io.sluice.client.internal;

/**
 * Layout of one stored message record as pull responses carry it (docs/wire-protocol.md#stored-record). Big-endian.
 *
 * <pre>
 *  offset (IPv4 hosts)  field                        width
 *  ------------------   --------------------------   -------------------------------------------
 *    0                  TOTALSIZE                    int    whole record, these 4 bytes included
 *    4                  MAGICCODE                    int    v1 0xDAA320A7 | v2 0xDAA320AB
 *    8                  BODYCRC                      int
 *   12                  QUEUEID                      int
 *   16                  FLAG                         int    producer's user flag
 *   20                  QUEUEOFFSET                  long   queue offset (inner batch: base offset)
 *   28                  PHYSICALOFFSET               long   CommitLog position of the record
 *   36                  SYSFLAG                      int    see the *_FLAG constants
 *   40                  BORNTIMESTAMP                long   producer clock, ms
 *   48                  BORNHOST                     8|20   4|16-byte address + int port (0x10 = IPv6)
 *   56                  STORETIMESTAMP               long   broker clock, ms
 *   64                  STOREHOST                    8|20   4|16-byte address + int port (0x20 = IPv6)
 *   72                  RECONSUMETIMES               int
 *   76                  PREPARED TX OFFSET           long
 *   84                  BODYLENGTH                   int    n
 *   88                  BODY                         n bytes
 *   88+n                TOPICLENGTH                  v1: byte, v2: short      t
 *   89+n (v1)           TOPIC                        t bytes (UTF-8)
 *   89+n+t              PROPERTIESLENGTH             short  p
 *   91+n+t              PROPERTIES                   p bytes: (name 0x01 value 0x02)*
 * </pre>
 * With an IPv6 born or store host, every field after that host moves 12 bytes further.
 *
 * <p>Constants only.
 */
public final class StoredRecordDescriptor {
    public static final int MAGIC_V1 = 0xDAA320A7;
    public static final int MAGIC_V2 = 0xDAA320AB;
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
    public static final int MIN_RECORD_BYTES = 91;

    /** Body compressed by the producer. */
    public static final int COMPRESSED_FLAG = 0x1;
    /** BORNHOST is IPv6. */
    public static final int BORNHOST_V6_FLAG = 0x10;
    /** STOREHOST is IPv6. */
    public static final int STOREHOST_V6_FLAG = 0x20;
    /** The body is a batch the consumer must unwrap. */
    public static final int NEED_UNWRAP_FLAG = 0x40;
    /** The record is a BatchCQ inner batch. */
    public static final int INNER_BATCH_FLAG = 0x80;
    /** Bits 8-10: compression type, 1 LZ4, 2 ZSTD, 3 ZLIB (0 with the compressed bit means ZLIB). */
    public static final int COMPRESSION_TYPE_MASK = 0x700;
    public static final int COMPRESSION_TYPE_SHIFT = 8;
    public static final int COMPRESSION_ZLIB = 3;

    private StoredRecordDescriptor() {
    }

    /** Bytes of the born host field for {@code sysFlag}. */
    public static int bornHostBytes(int sysFlag) {
        return (sysFlag & BORNHOST_V6_FLAG) != 0 ? 20 : 8;
    }

    /** Bytes of the store host field for {@code sysFlag}. */
    public static int storeHostBytes(int sysFlag) {
        return (sysFlag & STOREHOST_V6_FLAG) != 0 ? 20 : 8;
    }

    /** True when a record must be unwrapped into its inner messages. */
    public static boolean isInnerBatch(int sysFlag) {
        return (sysFlag & (NEED_UNWRAP_FLAG | INNER_BATCH_FLAG)) == (NEED_UNWRAP_FLAG | INNER_BATCH_FLAG);
    }
}
