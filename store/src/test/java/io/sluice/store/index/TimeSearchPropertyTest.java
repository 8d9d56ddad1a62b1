package io.sluice.store.index;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.sluice.format.ConsumeQueueType;
import io.sluice.store.index.QueueFixture.Rec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

/**
 * Offset-by-time search of both queue types against a linear scan over the messages, with non-decreasing store
 * times that often repeat, before and after a trim.
 */
class TimeSearchPropertyTest {

    @Property(tries = 200)
    void timeSearchMatchesALinearScan(
            @ForAll boolean batch,
            @ForAll @Size(min = 1, max = 80) List<@IntRange(min = 0, max = 3) Integer> timeSteps,
            @ForAll @IntRange(min = 1, max = 7) int slotsPerFile,
            @ForAll @IntRange(min = 0, max = 40) int trimAt) throws IOException {
        ConsumeQueueType type = batch ? ConsumeQueueType.BATCH : ConsumeQueueType.SIMPLE;
        Path root = Files.createTempDirectory("cq-time");
        try (QueueFixture fx = new QueueFixture(root, type, slotsPerFile)) {
            long time = 1_000;
            for (int i = 0; i < timeSteps.size(); i++) {
                time += timeSteps.get(i);
                int batchCount = batch ? 1 + (i * 5 + timeSteps.get(i)) % 4 : 1;
                fx.append(fx.next(batchCount, time));
            }
            checkAgainstLinearScan(fx);
            if (trimAt > 0 && trimAt < fx.records.size()) {
                fx.queue.trimBelowPosition(fx.records.get(trimAt).position());
                checkAgainstLinearScan(fx);
            }
        } finally {
            QueueFixture.deleteRecursively(root);
        }
    }

    private static void checkAgainstLinearScan(QueueFixture fx) {
        long min = fx.queue.minOffset();
        long max = fx.queue.maxOffset();
        List<Rec> readable = fx.records.stream().filter(r -> r.offset() >= min).toList();
        long from = fx.records.get(0).timeMs() - 2;
        long to = fx.last().timeMs() + 2;
        for (long ts = from; ts <= to; ts++) {
            long firstAtOrAfter = max;
            long lastAtOrBefore = min;
            boolean seenFirst = false;
            for (Rec rec : readable) {
                if (!seenFirst && rec.timeMs() >= ts) {
                    firstAtOrAfter = rec.offset();
                    seenFirst = true;
                }
                if (rec.timeMs() <= ts) {
                    lastAtOrBefore = rec.next() - 1;
                }
            }
            assertEquals(firstAtOrAfter, fx.queue.offsetByTimestamp(ts, true), "first at or after " + ts);
            assertEquals(lastAtOrBefore, fx.queue.offsetByTimestamp(ts, false), "last at or before " + ts);
        }
        assertEquals(readable.isEmpty() ? -1 : readable.get(0).timeMs(), fx.queue.earliestStoreTimeMs());
    }
}
