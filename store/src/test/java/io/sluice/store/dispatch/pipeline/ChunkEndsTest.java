package io.sluice.store.dispatch.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.format.RecordDescriptor;
import io.sluice.store.log.InMemoryLog;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Where {@link ChunkEnds} ends a chunk: at a hint within the limit, else where the walk of the bytes read stops. */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class ChunkEndsTest {

    private static final int RECORD = InMemoryLog.recordBytes();
    private static final ChunkEnds.Hints NO_HINTS = (from, limit, maxBytes, maxRecords) -> -1;

    private static InMemoryLog logOf(int records) {
        InMemoryLog log = new InMemoryLog(records, 64, 64);
        for (int i = 0; i < records; i++) {
            log.append();
        }
        return log;
    }

    /** Cuts from 0 up to {@code limit}; asserts the end (in records) and whether it came from a hint. */
    private static void assertCut(ChunkEnds ends, InMemoryLog log, long limit, int records, boolean hinted) {
        assertEquals((long) records * RECORD, ends.end(0, limit, log.capacityEnd(), length -> log.view(0, length)));
        assertTrue(ends.bytes().limit() >= records * RECORD, "the bytes read cover the chunk");
        assertEquals(hinted, ends.wasHinted());
    }

    @Test
    void aHintEndsTheChunkAtTheLastNotedBoundaryWithinChunkBytes() {
        InMemoryLog log = logOf(5);
        ChunkEnds ends = new ChunkEnds(log::knownRecordBoundary, RECORD * 5 / 2, 1000);
        assertCut(ends, log, log.visibleEnd(), 2, true);
    }

    @Test
    void noHintIsAskedForWhenTheReadableBytesFitOneChunk() {
        InMemoryLog log = logOf(3);
        ChunkEnds.Hints failing = (from, limit, maxBytes, maxRecords) -> {
            throw new AssertionError("asked for a hint");
        };
        ChunkEnds ends = new ChunkEnds(failing, 3 * RECORD, 1000);
        assertCut(ends, log, log.visibleEnd(), 3, false);
    }

    @Test
    void theWalkTakesOnlyTheWholeRecordsBelowTheLimit() {
        InMemoryLog log = logOf(3);
        ChunkEnds ends = new ChunkEnds(NO_HINTS, 10 * RECORD, 1000);
        assertCut(ends, log, RECORD * 3 / 2, 1, false);
    }

    @Test
    void withoutAHintTheWalkTakesTheWholeRecordsOfTheFirstChunkBytes() {
        InMemoryLog log = logOf(5);
        ChunkEnds ends = new ChunkEnds(NO_HINTS, RECORD * 5 / 2, 1000);
        assertCut(ends, log, log.visibleEnd(), 2, false);
    }

    @Test
    void aFirstRecordLongerThanChunkBytesIsReadWhole() {
        InMemoryLog log = logOf(3);
        ChunkEnds ends = new ChunkEnds(NO_HINTS, RECORD / 2, 1000);
        List<Integer> reads = new ArrayList<>();
        long end = ends.end(0, log.visibleEnd(), log.capacityEnd(), length -> {
            reads.add(length);
            return log.view(0, length);
        });
        assertEquals(RECORD, end);
        assertEquals(List.of(RECORD / 2, RECORD), reads);
    }

    @Test
    void bytesGoneBeforeTheReadEndNothing() {
        InMemoryLog log = logOf(3);
        ChunkEnds ends = new ChunkEnds(NO_HINTS, 10 * RECORD, 1000);
        assertEquals(-1, ends.end(0, log.visibleEnd(), log.capacityEnd(), length -> null));
    }

    @Test
    void theWalkStopsAfterMaxRecords() {
        InMemoryLog log = logOf(5);
        ChunkEnds ends = new ChunkEnds(NO_HINTS, 10 * RECORD, 2);
        assertCut(ends, log, log.visibleEnd(), 2, false);
    }

    @Test
    void damageAtTheStartEndsTheChunkAtItsStartWithTheReason() {
        ByteBuffer zeros = ByteBuffer.allocate(4 * RECORD);
        ChunkEnds ends = new ChunkEnds(NO_HINTS, RECORD, 1000);
        assertEquals(0, ends.end(0, zeros.capacity(), zeros.capacity(), length -> zeros.duplicate().limit(length)));
        assertEquals("illegal magic 0x0", ends.broken());

        ByteBuffer tooLong = ByteBuffer.allocate(4 * RECORD);
        tooLong.putInt(RecordDescriptor.TOTAL_SIZE_OFFSET, 5 * RECORD);
        tooLong.putInt(RecordDescriptor.MAGIC_OFFSET, RecordDescriptor.MAGIC_V1);
        assertEquals(0, ends.end(0, tooLong.capacity(), tooLong.capacity(),
                length -> tooLong.duplicate().limit(length)));
        assertTrue(ends.broken().startsWith("TOTALSIZE " + 5 * RECORD + " outside"), ends.broken());
    }

    @Test
    void aBlankRecordMustReachTheSegmentEnd() {
        ByteBuffer blank = ByteBuffer.allocate(64);
        blank.putInt(RecordDescriptor.TOTAL_SIZE_OFFSET, 64);
        blank.putInt(RecordDescriptor.MAGIC_OFFSET, RecordDescriptor.MAGIC_BLANK);
        ChunkEnds ends = new ChunkEnds(NO_HINTS, 4096, 1000);
        assertEquals(1024 + 64, ends.end(1024, 1024 + 64, 1024 + 64, length -> blank.duplicate().limit(length)));
        assertEquals(1024, ends.end(1024, 1024 + 64, 4096, length -> blank.duplicate().limit(length)));
        assertTrue(ends.broken().startsWith("blank record TOTALSIZE 64"), ends.broken());
    }
}
