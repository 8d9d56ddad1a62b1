package io.sluice.store.log;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A cursor that walks its own copy of the log ({@link CommitLog#copyingCursor}) finds what the cursor on the mapping
 * finds, step for step, whatever the window: records longer than it, records straddling its end, segment ends, a log
 * that grows while it walks, a seek and a truncation below the copy.
 */
@Timeout(60)
class CopyingCursorTest {

    @TempDir
    Path dir;

    /** One step of a walk: the status, the position after it, and the record's bytes when VALID. */
    private record Step(ScanStatus status, long position, byte[] record) {
    }

    private static List<Step> walk(CommitLog log, RecordCursor cursor, boolean copy, int maxSteps) {
        List<Step> steps = new ArrayList<>();
        for (int i = 0; i < maxSteps; i++) {
            ScanResult r = cursor.next();
            byte[] bytes = null;
            if (r.status() == ScanStatus.VALID) {
                ByteBuffer record = copy ? cursor.record()
                        : log.readRecord(r.entry().position(), r.entry().sizeBytes()).buffer();
                bytes = LogFixture.bytes(record);
            }
            steps.add(new Step(r.status(), cursor.position(), bytes));
            if (r.status() == ScanStatus.NO_MORE_DATA) {
                break;
            }
        }
        return steps;
    }

    private static void assertSameWalk(List<Step> expected, List<Step> actual, String what) {
        assertEquals(expected.size(), actual.size(), what + ": steps");
        for (int i = 0; i < expected.size(); i++) {
            assertEquals(expected.get(i).status(), actual.get(i).status(), what + ": status of step " + i);
            assertEquals(expected.get(i).position(), actual.get(i).position(), what + ": position after step " + i);
            assertArrayEquals(expected.get(i).record(), actual.get(i).record(), what + ": record of step " + i);
        }
    }

    private static void append(CommitLog log, Random random, int records) {
        for (int i = 0; i < records; i++) {
            int bodyBytes = random.nextInt(10) == 0 ? 5_000 + random.nextInt(20_000) : 10 + random.nextInt(900);
            LogFixture.appendOk(log, LogFixture.draft("Copy", random.nextInt(4), LogFixture.filled(bodyBytes, i),
                    random.nextBoolean() ? "KEYS\u0001k" + i + "\u0002" : ""));
        }
    }

    @Test
    void walksTheSameRecordsAsTheMappingWhateverTheWindow() throws IOException {
        try (CommitLog log = LogFixture.openRecovered(dir)) {
            Random random = new Random(3);
            append(log, random, 300);
            List<Step> expected = walk(log, log.cursor(0), false, 10_000);
            for (int window : new int[] {8, 100, 1_000, 4_096, 30_000, 1 << 20}) {
                assertSameWalk(expected, walk(log, log.copyingCursor(0, window), true, 10_000), "window " + window);
            }
        }
    }

    @Test
    void followsALogThatGrowsAndRereadsAfterASeekOrATruncation() throws IOException {
        try (CommitLog log = LogFixture.openRecovered(dir)) {
            Random random = new Random(5);
            RecordCursor mapped = log.cursor(0);
            RecordCursor copying = log.copyingCursor(0, 2_000);
            for (int round = 0; round < 6; round++) {
                append(log, random, 40);
                assertSameWalk(walk(log, mapped, false, 10_000), walk(log, copying, true, 10_000), "round " + round);
            }
            long middle = mapped.position() / 2;
            RecordCursor probe = log.cursor(0);
            while (probe.position() < middle) {
                probe.next();
            }
            long boundary = probe.position();
            mapped.seek(boundary);
            copying.seek(boundary);
            assertSameWalk(walk(log, mapped, false, 10_000), walk(log, copying, true, 10_000), "after a seek");

            RecordCursor behind = log.copyingCursor(0, 1 << 20);
            walk(log, behind, true, 3); // its copy now reaches past the truncation point
            log.truncateTo(boundary);
            append(log, random, 30);
            RecordCursor fresh = log.cursor(0);
            walk(log, fresh, false, 3);
            assertSameWalk(walk(log, fresh, false, 10_000), walk(log, behind, true, 10_000),
                    "a copy taken before the truncation is not used after it");
        }
    }

    @Test
    void aStepThatFoundNoRecordHasNoRecordToShow() throws IOException {
        try (CommitLog log = LogFixture.openRecovered(dir)) {
            RecordCursor cursor = log.copyingCursor(0, 4_096);
            assertEquals(ScanStatus.NO_MORE_DATA, cursor.next().status());
            assertThrows(IllegalStateException.class, cursor::record);
            assertThrows(IllegalStateException.class, log.cursor(0)::record);
            assertThrows(IllegalArgumentException.class, () -> log.copyingCursor(0, 7));
        }
    }
}
