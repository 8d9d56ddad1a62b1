package io.sluice.store.retention;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.format.ConsumeQueueType;
import io.sluice.store.dispatch.SettableDispatcher;
import io.sluice.store.log.StoreFailureHandler;
import io.sluice.store.index.ConsumeQueueTable;
import io.sluice.store.index.IndexSettings;
import io.sluice.store.index.StoreTimeLookup;
import io.sluice.testing.Await;
import io.sluice.store.log.CommitLog;
import io.sluice.store.log.LogEnvironment;
import io.sluice.store.log.LogSettings;
import io.sluice.store.log.MessageDraft;
import io.sluice.store.log.ReadResult;
import io.sluice.store.log.ReadStatus;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneOffset;
import org.agrona.concurrent.CachedEpochClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The agent against a real log, with a dispatcher stand-in whose position the test sets. */
class RetentionAgentTest {

    private static final InetSocketAddress HOST = new InetSocketAddress(InetAddress.getLoopbackAddress(), 10911);
    private static final int SEGMENT_BYTES = 128 * 1024;

    @TempDir
    Path dir;

    private final CachedEpochClock clock = new CachedEpochClock();
    private final StoreFailureHandler failures = new StoreFailureHandler();
    private final double[] disk = {0.1};
    private CommitLog log;
    private ConsumeQueueTable queues;
    private RetentionAgent agent;

    /** Only the position matters to retention. */
    private final SettableDispatcher dispatcher = new SettableDispatcher();

    @BeforeEach
    void open() throws IOException {
        LogEnvironment env = LogEnvironment.system().withEpochClock(clock).withFailureHandler(failures);
        log = CommitLog.open(LogSettings.builder(dir.resolve("commitlog"), HOST).segmentBytes(SEGMENT_BYTES)
                .maxMessageBytes(8 * 1024).build(), env);
        log.recover(0, true, e -> { });
        queues = ConsumeQueueTable.open(IndexSettings.defaults(dir), t -> ConsumeQueueType.SIMPLE, StoreTimeLookup.NONE);
        agent = new RetentionAgent(RetentionSettings.defaults(), log, queues, dispatcher, failures,
                path -> disk[0], clock, ZoneOffset.UTC);
        clock.update(0); // 00:00 UTC, not a deletion hour
        while (log.writtenPosition() < 3L * SEGMENT_BYTES) {
            Await.result(log.append(MessageDraft.builder("t", 0).body(new byte[2_000]).bornHost(HOST).build()));
        }
    }

    @AfterEach
    void close() {
        queues.close();
        log.close();
    }

    @Test
    void shouldNotDeleteSegmentsDispatchHasNotFinished() {
        agent = new RetentionAgent(RetentionSettings.defaults().withCleanFileForcibly(true), log, queues, dispatcher,
                failures, path -> disk[0], clock, ZoneOffset.UTC);
        disk[0] = 0.99;
        dispatcher.set(SEGMENT_BYTES + 10);

        RetentionOutcome outcome = agent.check();

        assertTrue(outcome.forced());
        assertEquals(1, outcome.deletedSegments(), "only the segment wholly below the dispatched position");
        assertEquals(SEGMENT_BYTES, log.minPosition());
        assertTrue(failures.isDiskFull());

        dispatcher.set(log.writtenPosition());
        Await.until("the deleted segment's blocks given back", () -> {
            System.gc();
            return log.pendingReleaseBytes() == 0;
        });
        assertEquals(2, agent.check().deletedSegments());
        assertEquals(3, agent.deletedSegments());
    }

    @Test
    void shouldKeepRemovedSegmentsForReuseUnlessTheDiskIsNearlyFull() {
        dispatcher.set(log.writtenPosition());
        clock.update(Long.MAX_VALUE / 2); // every segment expired
        agent = new RetentionAgent(RetentionSettings.defaults().withMaxSegmentDeletesPerRun(1), log, queues,
                dispatcher, failures, path -> disk[0], clock, ZoneOffset.UTC);
        disk[0] = 0.80; // above diskMaxUsedSpaceRatio, below the forced and refuse ratios

        assertEquals(1, agent.check().deletedSegments());
        assertEquals(0, log.pendingReleaseBytes(), "kept for reuse, not unlinked");
        assertTrue(Files.exists(dir.resolve("commitlog").resolve("recycled-" + "0".repeat(20))));

        disk[0] = 0.95;
        assertEquals(1, agent.check().deletedSegments());
        assertEquals(SEGMENT_BYTES, log.pendingReleaseBytes(), "unlinked: the space is needed now");
    }

    @Test
    void shouldNotForceMoreDeletionsWhileDeletedSegmentsStillHoldTheirBlocks() {
        // The disk figure stays high: the deleted segment's mapping still holds its blocks (a reader's view of it).
        disk[0] = 0.99;
        dispatcher.set(log.writtenPosition());
        ReadResult view = log.readRecord(0, 100);
        agent = new RetentionAgent(RetentionSettings.defaults().withCleanFileForcibly(true)
                .withMaxSegmentDeletesPerRun(1), log, queues,
                dispatcher, failures, path -> disk[0], clock, ZoneOffset.UTC);
        assertEquals(1, agent.check().deletedSegments());
        assertEquals(SEGMENT_BYTES, log.pendingReleaseBytes());

        RetentionOutcome held = agent.check();

        assertFalse(held.forced(), "no forced deletion while the earlier one has freed nothing");
        assertEquals(0, held.deletedSegments());
        assertEquals(SEGMENT_BYTES, log.minPosition());
        assertEquals(1, agent.collectionRequests());
        assertEquals(ReadStatus.FOUND, view.status(), "the reader's view stays readable");
        assertTrue(view.buffer().remaining() > 0);

        view = null;
        Await.until("the deleted segment's blocks given back", () -> {
            System.gc();
            return log.pendingReleaseBytes() == 0;
        });
        RetentionOutcome freed = agent.check();
        assertTrue(freed.forced());
        assertEquals(1, freed.deletedSegments());
    }

    @Test
    void shouldClearTheDiskFullFlagWhenSpaceReturnsAndKeepItWhenUnreadable() {
        disk[0] = 0.95;
        assertTrue(agent.check().diskFull());
        disk[0] = Double.NaN;

        RetentionOutcome unreadable = agent.check();

        assertTrue(unreadable.diskFull(), "a ratio that is not a fraction changes nothing");
        assertEquals(-1, unreadable.diskUsedRatio());
        assertEquals(0.95, agent.lastDiskUsedRatio());
        assertEquals(1, agent.failures());
        disk[0] = 0.2;
        assertFalse(agent.check().diskFull());
        assertEquals(0.2, agent.lastDiskUsedRatio());
        assertEquals(0, agent.deletedSegments());
    }

    @Test
    void shouldCountAFailingDiskProbeAndGoOn() {
        RetentionAgent failing = new RetentionAgent(RetentionSettings.defaults(), log, queues, dispatcher, failures,
                path -> {
                    throw new IOException("statfs failed");
                }, clock, ZoneOffset.UTC);

        RetentionOutcome outcome = failing.check();

        assertEquals(-1, outcome.diskUsedRatio());
        assertFalse(outcome.deletionDue());
        assertEquals(1, failing.failures());
    }
}
