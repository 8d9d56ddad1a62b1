package io.sluice.store.dispatch.pipeline;

import io.sluice.store.log.InMemoryLog;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * jcstress test of where the dispatch reader ends a chunk while the appender writes (run by
 * {@code io.sluice.store.JcstressIT}): from what it reads concurrently with the appender, the published end and the
 * record boundary hints (noted before the end that covers them is published), {@link ChunkEnds} makes a chunk of
 * whole records only, never ending mid-record nor past the end it loaded. The reader runs {@link ChunkCutter}'s steps
 * over an {@link InMemoryLog}, whose appender is the CommitLog's.
 */
public final class ChunkEndsStress {

    private static final int RECORDS = 3;
    private static final int RECORD_BYTES = InMemoryLog.recordBytes();
    /** Two and a half records: with three records published the reader takes a hint, with fewer it walks. */
    private static final int CHUNK_BYTES = RECORD_BYTES * 5 / 2;
    private static final int MAX_RECORDS_PER_CHUNK = 1000;

    private ChunkEndsStress() {
    }

    /**
     * An appender writes three records while the reader cuts one chunk from position 0, as {@code cutOnce} does: loads
     * the end and asks {@link ChunkEnds} for the chunk's end, reading views below it (two actors: jcstress needs a CPU
     * per actor, and this project's machines have two).
     */
    @JCStressTest
    @Description("A chunk holds whole records below the published end, whether its end came from a hint or a walk.")
    @Outcome(id = {"0, 0", "1, 1", "2, 1", "2, 2", "3, 1", "3, 2", "3, 3"}, expect = Expect.ACCEPTABLE,
            desc = "nothing published yet, or a chunk of whole records below the end")
    @Outcome(expect = Expect.FORBIDDEN, desc = "a chunk past the published end, ending mid-record, or cut short by"
            + " damage below the end")
    @State
    public static class WholeRecordsOnly {
        private final InMemoryLog log = new InMemoryLog(RECORDS, 64, 16);
        private final ChunkEnds ends = new ChunkEnds(log::knownRecordBoundary, CHUNK_BYTES, MAX_RECORDS_PER_CHUNK);

        @Actor
        public void appender() {
            for (int i = 0; i < RECORDS; i++) {
                log.append();
            }
        }

        /** r1: records below the end the reader loaded; r2: records in its chunk (-1: not a record boundary). */
        @Actor
        public void reader(II_Result r) {
            long limit = Math.min(log.visibleEnd(), log.capacityEnd());
            r.r1 = inRecords(limit);
            r.r2 = limit == 0 ? 0 : inRecords(ends.end(0, limit, log.capacityEnd(), length -> log.view(0, length)));
        }

        private static int inRecords(long position) {
            return position % RECORD_BYTES == 0 ? (int) (position / RECORD_BYTES) : -1;
        }
    }
}
