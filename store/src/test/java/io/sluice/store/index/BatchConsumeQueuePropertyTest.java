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
import net.jqwik.api.constraints.LongRange;
import net.jqwik.api.constraints.Size;

/** BatchCQ offset search against a linear scan of the appended records, across file boundaries. */
class BatchConsumeQueuePropertyTest {

    @Property(tries = 150)
    void lookupAndReadByOffsetMatchALinearScan(
            @ForAll @Size(min = 1, max = 100) List<@IntRange(min = 1, max = 40) Integer> batchSizes,
            @ForAll @IntRange(min = 1, max = 9) int slotsPerFile,
            @ForAll @LongRange(min = 0, max = 500) long startOffset,
            @ForAll @IntRange(min = 1, max = 6) int readCapacity) throws IOException {
        Path root = Files.createTempDirectory("bcq-offsets");
        try (QueueFixture fx = new QueueFixture(root, ConsumeQueueType.BATCH, slotsPerFile)) {
            fx.append(fx.startAt(startOffset, batchSizes.get(0), 1_000));
            for (int i = 1; i < batchSizes.size(); i++) {
                fx.append(fx.next(batchSizes.get(i), 1_000 + i));
            }
            checkAgainstLinearScan(fx, fx.records.get(0).offset(), readCapacity);
            fx.reopen();
            checkAgainstLinearScan(fx, fx.records.get(0).offset(), readCapacity);
        } finally {
            QueueFixture.deleteRecursively(root);
        }
    }

    @Property(tries = 150)
    void trimAndTruncateMatchTheModel(
            @ForAll boolean batch,
            @ForAll @Size(min = 1, max = 60) List<@IntRange(min = 1, max = 5) Integer> batchSizes,
            @ForAll @IntRange(min = 1, max = 6) int slotsPerFile,
            @ForAll @IntRange(min = 0, max = 65) int trimAt,
            @ForAll @IntRange(min = 0, max = 65) int truncateAfterTrim) throws IOException {
        ConsumeQueueType type = batch ? ConsumeQueueType.BATCH : ConsumeQueueType.SIMPLE;
        Path root = Files.createTempDirectory("cq-trim");
        try (QueueFixture fx = new QueueFixture(root, type, slotsPerFile)) {
            for (int i = 0; i < batchSizes.size(); i++) {
                fx.append(fx.next(batch ? batchSizes.get(i) : 1, 1_000 + i));
            }
            List<Rec> all = List.copyOf(fx.records);
            int n = all.size();
            // The CommitLog is trimmed at the start of record trimAt, then cut back at record truncateAt >= trimAt.
            int truncateAt = Math.min(n, trimAt + truncateAfterTrim);
            long trimPosition = trimAt < n ? all.get(trimAt).position() : all.get(n - 1).end() + 1;
            long cutPosition = truncateAt < n ? all.get(truncateAt).position() : Long.MAX_VALUE;

            fx.queue.trimBelowPosition(trimPosition);
            long trimMin = trimAt < n ? all.get(trimAt).offset() : all.get(n - 1).next();
            assertEquals(trimMin, fx.queue.minOffset());

            fx.queue.truncateFromPosition(cutPosition);
            long max = truncateAt < n ? all.get(truncateAt).offset() : all.get(n - 1).next();
            long min = Math.min(trimMin, max);
            fx.records.subList(truncateAt, n).clear();
            checkRange(fx, min, max);

            int slotsDeleted = filesWhollyBelow(all, slotsPerFile, trimPosition) * slotsPerFile;
            if (truncateAt > slotsDeleted || type == ConsumeQueueType.SIMPLE) {
                // A BatchCQ left with no slot on disk cannot remember its offsets across a restart.
                fx.reopen();
                fx.queue.trimBelowPosition(trimPosition);
                checkRange(fx, min, max);
            }
        } finally {
            QueueFixture.deleteRecursively(root);
        }
    }

    /** Files (never the last) whose last slot starts below the position: what a trim deletes. */
    private static int filesWhollyBelow(List<Rec> records, int slotsPerFile, long position) {
        int files = (records.size() + slotsPerFile - 1) / slotsPerFile;
        int deleted = 0;
        while (deleted < files - 1 && records.get((deleted + 1) * slotsPerFile - 1).position() < position) {
            deleted++;
        }
        return deleted;
    }

    private static void checkRange(QueueFixture fx, long min, long max) {
        assertEquals(min, fx.queue.minOffset());
        assertEquals(max, fx.queue.maxOffset());
        for (long offset = 0; offset < max + 3; offset++) {
            SlotLookup actual = fx.queue.lookup(offset);
            if (offset >= max) {
                assertEquals(SlotReadStatus.BEYOND_MAX, actual.status(), "offset " + offset);
            } else if (offset < min) {
                assertEquals(SlotReadStatus.BELOW_MIN, actual.status(), "offset " + offset);
            } else {
                assertEquals(linearScan(fx.records, offset).slot(fx.type), actual, "offset " + offset);
            }
        }
    }

    private static void checkAgainstLinearScan(QueueFixture fx, long min, int readCapacity) {
        long max = fx.last().next();
        checkRange(fx, min, max);
        SlotBatch slots = new SlotBatch(readCapacity);
        for (long offset = min; offset < max; offset++) {
            assertEquals(SlotReadStatus.FOUND, fx.queue.read(offset, slots));
            int first = fx.records.indexOf(linearScan(fx.records, offset));
            int expected = Math.min(readCapacity, fx.records.size() - first);
            assertEquals(expected, slots.size());
            for (int i = 0; i < expected; i++) {
                assertEquals(fx.records.get(first + i).slot(fx.type), slots.slot(i));
            }
        }
    }

    static Rec linearScan(List<Rec> records, long offset) {
        for (Rec rec : records) {
            if (rec.holds(offset)) {
                return rec;
            }
        }
        throw new AssertionError("no record holds offset " + offset);
    }
}
