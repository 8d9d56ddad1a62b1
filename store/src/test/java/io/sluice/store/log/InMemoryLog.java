package io.sluice.store.log;

import io.sluice.format.MessageIdDescriptor;
import java.nio.ByteBuffer;
import java.util.Arrays;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * A log of a few records in one heap buffer, cheap enough for a jcstress state per sample: the appender side is the
 * CommitLog's own, {@link PreparedAppend#write} for the bytes of each record and {@link PublishedEnd} for the boundary
 * hints and the published end, in the CommitLog's order (write, then publish); only the file write between them
 * becomes plain stores into the buffer the readers read. Every record has the same size, {@link #recordBytes()}.
 *
 * <p>Thread-safety: one appender thread ({@link #append()}); readers on any thread.
 */
public final class InMemoryLog {

    /** Records the reference log holds: the most {@link #completeRecords} compares. */
    public static final int REFERENCE_RECORDS = 8;

    private static final long STORE_TIMESTAMP_MS = 1_700_000_000_000L;
    private static final byte[] STORE_HOST_BYTES = MessageIdDescriptor.hostBytes(LogFixture.STORE_HOST);
    /** The one record every append writes (at its own position and queue offset); immutable once prepared. */
    private static final PreparedAppend RECORD = prepare();
    private static final int RECORD_BYTES = RECORD.bytes(0);

    private final int capacityRecords;
    private final UnsafeBuffer buffer;
    private final ByteBuffer bytes;
    private final PublishedEnd end;
    /** Records appended so far. Appender only. */
    private int appended;

    /**
     * @param capacityRecords records the buffer holds
     * @param granuleBytes    the boundary hints' granule, a power of two
     * @param slots           the boundary hints' ring slots, a power of two
     */
    public InMemoryLog(int capacityRecords, int granuleBytes, int slots) {
        this.capacityRecords = capacityRecords;
        this.bytes = ByteBuffer.allocate(capacityRecords * RECORD_BYTES);
        this.buffer = new UnsafeBuffer(bytes);
        this.end = new PublishedEnd(new RecordBoundaryIndex(granuleBytes, slots));
        end.restartAt(0);
    }

    private static PreparedAppend prepare() {
        DraftEncoder encoder = new DraftEncoder(LogFixture.MAX_MESSAGE_BYTES, LogFixture.SEGMENT_BYTES, false);
        MessageDraft draft = LogFixture.draft("Stress", 0, LogFixture.filled(24, 7), "TAGS\u0001t\u0002");
        return (PreparedAppend) encoder.prepare(draft);
    }

    /** Bytes of each record. */
    public static int recordBytes() {
        return RECORD_BYTES;
    }

    /** Appender: writes the next record at the end, then publishes it, as {@code CommitLog#append} does. */
    public void append() {
        long position = end.writerPosition();
        RECORD.write(buffer, (int) position, position, appended, STORE_TIMESTAMP_MS, STORE_HOST_BYTES);
        end.publishRecord(position, position + RECORD_BYTES);
        appended++;
    }

    /** Reader: the published end, loaded with acquire (the CommitLog's written position). */
    public long visibleEnd() {
        return end.visible();
    }

    /** Reader: the CommitLog's record boundary hint lookup. */
    public long knownRecordBoundary(long from, long limit, int maxBytes, int maxRecords) {
        return end.knownRecordBoundary(from, limit, maxBytes, maxRecords);
    }

    /** Reader: a view of {@code [from, to)}, as the CommitLog's reads return (absolute indexes from 0). */
    public ByteBuffer view(long from, long to) {
        return bytes.slice((int) from, (int) (to - from)).asReadOnlyBuffer();
    }

    /** The end of the buffer: the segment end for a chunk cutter. */
    public long capacityEnd() {
        return (long) capacityRecords * RECORD_BYTES;
    }

    /**
     * Reader: how many records from position 0 on hold every byte the appender writes for them, up to {@code limit}
     * records; compares against a log that finished its appends before this one was read.
     */
    public int completeRecords(int limit) {
        byte[] expected = Reference.BYTES;
        for (int r = 0; r < limit; r++) {
            int from = r * RECORD_BYTES;
            for (int i = from; i < from + RECORD_BYTES; i++) {
                if (buffer.getByte(i) != expected[i]) {
                    return r;
                }
            }
        }
        return limit;
    }

    /** The bytes of a log after {@link #REFERENCE_RECORDS} appends, built once on first use. */
    private static final class Reference {
        static final byte[] BYTES = build();

        private static byte[] build() {
            InMemoryLog log = new InMemoryLog(REFERENCE_RECORDS, 64, 4);
            for (int r = 0; r < REFERENCE_RECORDS; r++) {
                log.append();
            }
            return Arrays.copyOf(log.bytes.array(), log.bytes.capacity());
        }
    }
}
