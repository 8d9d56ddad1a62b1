package io.sluice.store;

import static io.sluice.store.StoreFixture.SEGMENT_BYTES;
import static io.sluice.store.StoreFixture.SIMPLE_TOPIC;
import static io.sluice.store.StoreFixture.appendOk;
import static io.sluice.store.StoreFixture.awaitDispatched;
import static io.sluice.store.StoreFixture.draft;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.sluice.store.log.AppendStatus;
import io.sluice.testing.Await;
import io.sluice.format.RecordDescriptor;
import io.sluice.store.retention.RetentionAgent;
import io.sluice.store.retention.RetentionGuard;
import io.sluice.store.retention.RetentionOutcome;
import io.sluice.store.retention.RetentionSettings;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.agrona.concurrent.CachedEpochClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/** Retention through the façade, with a manual clock (UTC) and a controllable disk. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class MessageStoreRetentionTest {

    /** 04:30 UTC: inside the default deletion hour. */
    private static final long T0 = Instant.parse("2024-01-10T04:30:00Z").toEpochMilli();
    private static final long HOUR_MS = TimeUnit.HOURS.toMillis(1);

    @TempDir
    Path root;

    private final CachedEpochClock clock = new CachedEpochClock();
    private final double[] disk = {0.10};
    private MessageStore store;

    @AfterEach
    void close() {
        if (store != null) {
            store.close();
        }
    }

    private void open(RetentionSettings retention) throws IOException {
        clock.update(T0);
        // A long check interval: the tests run the checks themselves.
        store = MessageStore.open(StoreFixture.settings(root).retention(retention.withCheckIntervalMs(3_600_000))
                .build(), StoreFixture.TYPES, StoreFixture.environment(clock, disk));
    }

    /** Fills four segments; returns the number of messages written to orders-0. */
    private int fillFourSegments() {
        int n = 0;
        while (store.stats().writtenPosition() < 3L * SEGMENT_BYTES + SEGMENT_BYTES / 2) {
            appendOk(store, draft(SIMPLE_TOPIC, 0, "x".repeat(1_000) + n++));
        }
        awaitDispatched(store);
        return n;
    }

    private boolean segmentExists(long start) {
        return Files.exists(StoreFixture.segmentFile(root, start));
    }

    @Test
    void shouldDeleteExpiredSegmentsAtTheDeletionHourButNeverTheActiveOne() throws IOException {
        open(RetentionSettings.defaults());
        int written = fillFourSegments();
        clock.update(T0 + 24 * HOUR_MS);
        assertEquals(0, store.runRetention().deletedSegments(), "not expired yet");

        clock.update(T0 + 96 * HOUR_MS);
        RetentionOutcome outcome = store.runRetention();

        assertEquals(3, outcome.deletedSegments());
        assertEquals(3L * SEGMENT_BYTES, outcome.minPosition());
        assertFalse(segmentExists(0));
        assertFalse(segmentExists(2L * SEGMENT_BYTES));
        assertTrue(segmentExists(3L * SEGMENT_BYTES), "the active segment stays");
        long min = store.minOffset(SIMPLE_TOPIC, 0);
        assertTrue(min > 0 && min < written, "min offset rose to the first record of the active segment: " + min);
        GetResult tooSmall = store.getMessages(SIMPLE_TOPIC, 0, 0, 8, 1 << 20, null);
        assertEquals(GetStatus.OFFSET_TOO_SMALL, tooSmall.status());
        assertEquals(min, tooSmall.nextOffset());
        GetResult first = store.getMessages(SIMPLE_TOPIC, 0, min, 1, 1 << 20, null);
        assertEquals(GetStatus.FOUND, first.status());
        assertEquals(3L * SEGMENT_BYTES, first.records().get(0).getLong(RecordDescriptor.PHYSICAL_OFFSET_OFFSET), "first record of the active segment");
        assertEquals(3, store.stats().deletedSegments());

        clock.update(T0 + 1_008 * HOUR_MS); // 42 days later, 04:30 again
        assertEquals(0, store.runRetention().deletedSegments(), "the active segment is never deleted");
    }

    @Test
    void shouldDeleteExpiredSegmentsOutsideTheHourOnlyUnderDiskPressure() throws IOException {
        open(RetentionSettings.defaults());
        fillFourSegments();
        clock.update(T0 + 97 * HOUR_MS); // 05:30: not a deletion hour

        RetentionOutcome calm = store.runRetention();
        assertFalse(calm.deletionDue());
        assertEquals(0, calm.deletedSegments());

        disk[0] = 0.80; // above diskMaxUsedSpaceRatio 0.75
        RetentionOutcome pressed = store.runRetention();

        assertTrue(pressed.deletionDue());
        assertFalse(pressed.forced());
        assertEquals(3, pressed.deletedSegments());
    }

    @Test
    void shouldForceDeletionOfUnexpiredSegmentsAboveTheForceRatio() throws IOException {
        open(RetentionSettings.defaults().withCleanFileForcibly(true).withMaxSegmentDeletesPerRun(2));
        fillFourSegments();
        clock.update(T0 + HOUR_MS); // 05:30, nothing expired
        disk[0] = 0.86;

        RetentionOutcome first = store.runRetention();
        assertTrue(first.forced());
        assertEquals(2, first.deletedSegments(), "at most maxSegmentDeletesPerRun per check");
        // The next forced deletion waits until the deleted segments' mappings are collected (their blocks back).
        int[] later = {0};
        Await.until("one more segment deleted once the first two freed their blocks", () -> {
            System.gc();
            later[0] += store.runRetention().deletedSegments();
            return later[0] >= 1;
        });
        assertEquals(1, later[0]);
        assertEquals(0, store.runRetention().deletedSegments(), "never the active segment");
        assertTrue(segmentExists(3L * SEGMENT_BYTES));
    }

    @Test
    void shouldNotForceDeletionWhenForcedCleaningIsDisabled() throws IOException {
        open(RetentionSettings.defaults().withCleanFileForcibly(false));
        fillFourSegments();
        clock.update(T0 + HOUR_MS);
        disk[0] = 0.86;

        RetentionOutcome outcome = store.runRetention();

        assertFalse(outcome.forced());
        assertEquals(0, outcome.deletedSegments());
    }

    @Test
    void shouldRefuseWritesWhileTheDiskIsNearlyFull() throws IOException {
        open(RetentionSettings.defaults());
        appendOk(store, draft(SIMPLE_TOPIC, 0, "before"));
        disk[0] = 0.95;

        assertTrue(store.runRetention().diskFull());

        long written = store.stats().writtenPosition();
        assertEquals(AppendStatus.DISK_FULL, Await.result(store.append(draft(SIMPLE_TOPIC, 0, "refused"))).status());
        assertEquals(written, store.stats().writtenPosition());
        assertTrue(store.stats().diskFull());
        assertFalse(store.stats().writable());
        assertEquals(0.95, store.stats().diskUsedRatio());

        disk[0] = 0.50;
        assertFalse(store.runRetention().diskFull());
        assertEquals(1, appendOk(store, draft(SIMPLE_TOPIC, 0, "after")).queueOffset());
    }

    @Test
    void shouldNoticeAFullDiskOnItsOwnSchedule() throws IOException {
        disk[0] = 0.99;
        clock.update(T0);
        store = MessageStore.open(StoreFixture.settings(root)
                .retention(RetentionSettings.defaults().withCheckIntervalMs(10)).build(),
                StoreFixture.TYPES, StoreFixture.environment(clock, disk));

        Await.until("the periodic check flags the disk full", () -> store.stats().diskFull());
        assertEquals(AppendStatus.DISK_FULL, Await.result(store.append(draft(SIMPLE_TOPIC, 0, "x"))).status());
    }

    /** A broker's answers, set by the test. */
    private static final class FixedGuard implements RetentionGuard {
        volatile long unconsumedFrom;
        volatile long neededFrom = Long.MAX_VALUE;

        @Override
        public long unconsumedFromPosition() {
            return unconsumedFrom;
        }

        @Override
        public long neededFromPosition() {
            return neededFrom;
        }

        @Override
        public String describeUnreadBelow(long minPosition) {
            return "group g orders-0 offsets [0, 42)";
        }
    }

    @Test
    void shouldDeleteUnexpiredSegmentsUnderPressureOnlyWhereEveryGroupHasConsumed() throws IOException {
        open(RetentionSettings.defaults());
        FixedGuard guard = new FixedGuard();
        guard.unconsumedFrom = 2L * SEGMENT_BYTES + 100; // segments 0 and 1 are read by every group
        store.retentionGuard(guard);
        fillFourSegments();
        clock.update(T0 + HOUR_MS); // nothing expired
        disk[0] = 0.80;

        RetentionOutcome outcome = store.runRetention();

        assertFalse(outcome.forced());
        assertEquals(2, outcome.deletedSegments());
        assertEquals(2L * SEGMENT_BYTES, store.stats().minPosition());
        assertEquals(0, store.stats().unreadBytesDeleted());
        assertEquals(0, store.runRetention().deletedSegments(), "segment 2 holds unread messages");
    }

    @Test
    void shouldKeepUnreadMessagesByDefaultAndRefuseSendsInstead() throws IOException {
        open(RetentionSettings.defaults());
        FixedGuard guard = new FixedGuard(); // nothing consumed
        store.retentionGuard(guard);
        fillFourSegments();
        clock.update(T0 + HOUR_MS);
        disk[0] = 0.95;

        RetentionOutcome outcome = store.runRetention();

        assertEquals(0, outcome.deletedSegments());
        assertTrue(outcome.diskFull());
        assertEquals(AppendStatus.DISK_FULL, Await.result(store.append(draft(SIMPLE_TOPIC, 0, "refused"))).status());
        assertEquals(0, store.stats().minPosition(), "every unread message is still there");
    }

    @Test
    void shouldReportAndCountUnreadMessagesThatForcedCleaningDeletes() throws IOException {
        open(RetentionSettings.defaults().withCleanFileForcibly(true).withMaxSegmentDeletesPerRun(2));
        FixedGuard guard = new FixedGuard();
        guard.unconsumedFrom = SEGMENT_BYTES / 2;
        store.retentionGuard(guard);
        fillFourSegments();
        clock.update(T0 + HOUR_MS);
        disk[0] = 0.86;
        ListAppender<ILoggingEvent> appender = new ListAppender<>();
        Logger logger = (Logger) LoggerFactory.getLogger(RetentionAgent.class);
        appender.start();
        logger.addAppender(appender);
        try {
            RetentionOutcome outcome = store.runRetention();

            assertTrue(outcome.forced());
            assertEquals(2, outcome.deletedSegments());
        } finally {
            logger.detachAppender(appender);
        }
        assertEquals(2L * SEGMENT_BYTES - SEGMENT_BYTES / 2, store.stats().unreadBytesDeleted());
        List<String> warnings = appender.list.stream().filter(e -> e.getLevel() == Level.WARN)
                .map(ILoggingEvent::getFormattedMessage).toList();
        assertEquals(1, warnings.size(), warnings.toString());
        assertTrue(warnings.get(0).contains("group g orders-0 offsets [0, 42)")
                && warnings.get(0).contains("[" + SEGMENT_BYTES / 2 + ", " + 2L * SEGMENT_BYTES + ")"),
                warnings.get(0));
    }

    @Test
    void shouldNeverDeleteWhatTheBrokerStillNeedsEvenForcibly() throws IOException {
        open(RetentionSettings.defaults().withCleanFileForcibly(true));
        FixedGuard guard = new FixedGuard();
        guard.neededFrom = SEGMENT_BYTES + 10; // a pending timer in segment 1
        store.retentionGuard(guard);
        fillFourSegments();
        clock.update(T0 + 97 * HOUR_MS); // everything expired, and the disk nearly full
        disk[0] = 0.95;

        assertEquals(1, store.runRetention().deletedSegments());
        assertTrue(segmentExists(SEGMENT_BYTES));

        guard.neededFrom = Long.MAX_VALUE; // the timer was delivered
        assertEquals(3L * SEGMENT_BYTES, store.runRetention().minPosition(), "the rest goes once nothing needs it");
    }
}
