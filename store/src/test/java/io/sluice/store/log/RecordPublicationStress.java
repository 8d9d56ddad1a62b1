package io.sluice.store.log;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * jcstress test of the CommitLog's record publication order (run by {@code io.sluice.store.JcstressIT}): a reader
 * that loads the published end ({@link PublishedEnd#visible()}) finds every byte of every record below it, because
 * the appender writes a record ({@link PreparedAppend#write}) before it publishes the end that covers it
 * ({@link PublishedEnd#publishRecord}). The appender and reader are {@link InMemoryLog}'s, which use those classes.
 */
public final class RecordPublicationStress {

    private RecordPublicationStress() {
    }

    /**
     * An appender writes two records while a reader loads the end and compares the bytes below it with the records'
     * (two actors: jcstress needs a CPU per actor, and this project's machines have two).
     */
    @JCStressTest
    @Description("Every byte below the published end of the CommitLog is written.")
    @Outcome(id = {"0, 0", "1, 1", "2, 2"}, expect = Expect.ACCEPTABLE, desc = "the records below the end, whole")
    @Outcome(expect = Expect.FORBIDDEN, desc = "a record below the published end with bytes not yet written")
    @State
    public static class WholeRecordsBelowEnd {
        private final InMemoryLog log = new InMemoryLog(2, 64, 16);

        @Actor
        public void appender() {
            log.append();
            log.append();
        }

        /** r1: records below the end the reader loaded; r2: how many of them it found complete. */
        @Actor
        public void reader(II_Result r) {
            long end = log.visibleEnd();
            int published = (int) (end / InMemoryLog.recordBytes());
            r.r1 = end % InMemoryLog.recordBytes() == 0 ? published : -1;
            r.r2 = log.completeRecords(published);
        }
    }
}
