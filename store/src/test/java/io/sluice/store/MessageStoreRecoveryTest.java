package io.sluice.store;

import io.sluice.testing.Await;

import static io.sluice.store.StoreFixture.BATCH_TOPIC;
import static io.sluice.store.StoreFixture.SIMPLE_TOPIC;
import static io.sluice.store.StoreFixture.appendOk;
import static io.sluice.store.StoreFixture.awaitDispatched;
import static io.sluice.store.StoreFixture.awaitMaxOffset;
import static io.sluice.store.StoreFixture.batch;
import static io.sluice.store.StoreFixture.draft;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.store.log.FlushMode;
import io.sluice.store.index.IndexSettings;
import io.sluice.store.log.AppendKind;
import io.sluice.store.log.AppendResult;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.apache.rocketmq.common.message.MessageDecoder;
import org.apache.rocketmq.common.message.MessageExt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Restarts after clean stops and after simulated crashes ({@link MessageStore#haltWithoutCleanShutdown()}: no
 * final checkpoint, abort marker kept), with the files damaged the way a crash can leave them.
 */
class MessageStoreRecoveryTest {

    private static final int ALL_BYTES = 1 << 20;

    @TempDir
    Path root;

    private static List<String> bodies(MessageStore store, String topic, int queueId) {
        List<String> out = new ArrayList<>();
        long offset = store.minOffset(topic, queueId);
        while (offset < store.maxOffset(topic, queueId)) {
            GetResult r = store.getMessages(topic, queueId, offset, 32, ALL_BYTES, null);
            assertEquals(GetStatus.FOUND, r.status(), r::toString);
            for (ByteBuffer unit : r.records()) {
                // A shared BatchCQ slot returns several records in one buffer.
                for (MessageExt m : MessageDecoder.decodesBatch(unit.duplicate(), true, false, false)) {
                    out.add(new String(m.getBody(), StandardCharsets.UTF_8));
                }
            }
            offset = r.nextOffset();
        }
        return out;
    }

    private static List<String> expected(String prefix, int count) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            out.add(prefix + i);
        }
        return out;
    }

    private static List<AppendResult> appendMany(MessageStore store, String topic, int queueId, String prefix,
                                                 int from, int to) {
        List<AppendResult> results = new ArrayList<>();
        for (int i = from; i < to; i++) {
            results.add(appendOk(store, draft(topic, queueId, prefix + i)));
        }
        return results;
    }

    @Test
    void shouldKeepEverythingAcrossACleanRestartWithoutRescanning() throws IOException {
        long end;
        try (MessageStore store = StoreFixture.open(root)) {
            for (int q = 0; q < 3; q++) {
                appendMany(store, SIMPLE_TOPIC, q, "q" + q + "-", 0, 10);
            }
            for (int i = 0; i < 5; i++) {
                appendOk(store, batch(BATCH_TOPIC, 0, AppendKind.INNER_BATCH, "a" + i, "b" + i));
            }
            awaitDispatched(store);
            end = store.stats().writtenPosition();
            assertTrue(new AbortMarker(root).isPresent(), "the abort marker exists while the store runs");
        }
        assertFalse(new AbortMarker(root).isPresent(), "a clean stop removes the abort marker");

        try (MessageStore store = StoreFixture.open(root)) {
            RecoveryReport report = store.recoveryReport();
            assertFalse(report.crashed());
            assertEquals(end, report.checkpointPosition());
            assertEquals(end, report.endPosition());
            assertEquals(0, report.scannedRecords());
            assertEquals(0, report.redispatchedRecords());
            assertEquals(0, report.truncatedSlots());
            for (int q = 0; q < 3; q++) {
                assertEquals(expected("q" + q + "-", 10), bodies(store, SIMPLE_TOPIC, q));
            }
            assertEquals(10, store.maxOffset(BATCH_TOPIC, 0));
            assertEquals(10, appendOk(store, draft(SIMPLE_TOPIC, 1, "next")).queueOffset());
            assertEquals(10, appendOk(store, draft(BATCH_TOPIC, 0, "next")).queueOffset());
        }
    }

    @Test
    void shouldCutATornLastRecordAndContinueOffsetsDensely() throws IOException {
        AppendResult last;
        try (MessageStore store = StoreFixture.openSync(root)) {
            appendMany(store, SIMPLE_TOPIC, 0, "m", 0, 20);
            awaitDispatched(store);
            store.checkpoint();
            List<AppendResult> more = appendMany(store, SIMPLE_TOPIC, 0, "m", 20, 25);
            last = more.get(more.size() - 1);
            awaitDispatched(store);
            store.haltWithoutCleanShutdown();
        }
        assertTrue(new AbortMarker(root).isPresent());
        // Torn write: only the first half of the last record reached the disk.
        int kept = last.wroteBytes() / 2;
        StoreFixture.overwrite(StoreFixture.segmentFile(root, last.position()),
                last.position() % StoreFixture.SEGMENT_BYTES + kept, new byte[last.wroteBytes() - kept]);

        try (MessageStore store = StoreFixture.open(root)) {
            RecoveryReport report = store.recoveryReport();
            assertTrue(report.crashed());
            assertEquals(last.position(), report.endPosition());
            assertEquals(last.position(), store.stats().writtenPosition());
            assertEquals(1, report.truncatedSlots(), "the slot of the torn record is dropped");
            assertEquals(24, store.maxOffset(SIMPLE_TOPIC, 0));
            assertEquals(expected("m", 24), bodies(store, SIMPLE_TOPIC, 0));

            assertEquals(24, appendOk(store, draft(SIMPLE_TOPIC, 0, "m24")).queueOffset());
            awaitMaxOffset(store, SIMPLE_TOPIC, 0, 25);
            assertEquals(expected("m", 25), bodies(store, SIMPLE_TOPIC, 0));
        }
    }

    /**
     * The state {@link MessageStoreCrashIT} ran into: SIGKILL while the last inner batch was being copied left its
     * header and body (BODYCRC matches) but not its last property bytes, and no slot for it (the log's write
     * position never passed it, so dispatch never saw it). Kept as a one-message record, the queue would continue
     * at its base + 1 and the next batch would overlap it.
     */
    @Test
    void shouldCutAnInnerBatchWhosePropertiesAreTornAndContinueAfterThePreviousBatch() throws IOException {
        AppendResult last;
        try (MessageStore store = StoreFixture.open(root)) {
            appendOk(store, batch(BATCH_TOPIC, 0, AppendKind.INNER_BATCH, "a0", "a1", "a2", "a3"));
            last = appendOk(store, batch(BATCH_TOPIC, 0, AppendKind.INNER_BATCH, "b4", "b5", "b6"));
            assertEquals(4, last.queueOffset());
            awaitMaxOffset(store, BATCH_TOPIC, 0, 7);
            store.haltWithoutCleanShutdown();
        }
        // INNER_BASE's value "4" and the closing separator never reached the file, nor any slot.
        StoreFixture.overwrite(StoreFixture.segmentFile(root, last.position()),
                last.position() % StoreFixture.SEGMENT_BYTES + last.wroteBytes() - 2, new byte[2]);
        deleteTree(root.resolve("batchconsumequeue"));

        try (MessageStore store = StoreFixture.open(root)) {
            RecoveryReport report = store.recoveryReport();
            assertEquals(last.position(), report.endPosition(), () -> "the torn batch at offset 4 (position "
                    + last.position() + ") must be cut: " + report);
            assertEquals(4, store.maxOffset(BATCH_TOPIC, 0), "the queue continues after the batch 0..3");
            AppendResult again = appendOk(store,
                    batch(BATCH_TOPIC, 0, AppendKind.INNER_BATCH, "c4", "c5"));
            assertEquals(4, again.queueOffset());
            awaitMaxOffset(store, BATCH_TOPIC, 0, 6);
            GetResult r = store.getMessages(BATCH_TOPIC, 0, 0, 32, ALL_BYTES, null);
            assertEquals(GetStatus.FOUND, r.status(), r::toString);
            assertEquals(2, r.records().size(), r::toString);
            assertEquals(4, MessageDecoder.decode(r.records().get(1).duplicate(), true, false).getQueueOffset());
            assertEquals(6, r.nextOffset());
        }
    }

    @Test
    void shouldCutARecordWithABadCrcAfterACrash() throws IOException {
        AppendResult last;
        try (MessageStore store = StoreFixture.open(root)) {
            appendMany(store, SIMPLE_TOPIC, 0, "m", 0, 5);
            last = appendOk(store, draft(SIMPLE_TOPIC, 0, "garbled"));
            awaitDispatched(store);
            store.haltWithoutCleanShutdown();
        }
        int bodyAt = last.wroteBytes() - 2 - SIMPLE_TOPIC.length() - 1 - "garbled".length();
        StoreFixture.overwrite(StoreFixture.segmentFile(root, last.position()),
                last.position() % StoreFixture.SEGMENT_BYTES + bodyAt, "X".getBytes(StandardCharsets.US_ASCII));

        try (MessageStore store = StoreFixture.open(root)) {
            assertEquals(last.position(), store.recoveryReport().endPosition());
            assertEquals(expected("m", 5), bodies(store, SIMPLE_TOPIC, 0));
        }
    }

    @Test
    void shouldRedispatchWhatATruncatedConsumeQueueLost() throws IOException {
        long checkpoint;
        try (MessageStore store = StoreFixture.openSync(root)) {
            appendMany(store, SIMPLE_TOPIC, 0, "m", 0, 10);
            awaitDispatched(store);
            checkpoint = store.checkpoint();
            appendMany(store, SIMPLE_TOPIC, 0, "m", 10, 20);
            awaitDispatched(store);
            store.haltWithoutCleanShutdown();
        }
        // The slots written after the checkpoint never reached the disk: the file ends after slot 9.
        Path cqFile = root.resolve("consumequeue").resolve(SIMPLE_TOPIC).resolve("0")
                .resolve("00000000000000000000");
        try (FileChannel ch = FileChannel.open(cqFile, StandardOpenOption.WRITE)) {
            ch.truncate(10 * 20);
        }

        try (MessageStore store = StoreFixture.open(root)) {
            RecoveryReport report = store.recoveryReport();
            assertEquals(checkpoint, report.checkpointPosition());
            assertEquals(checkpoint, report.fromPosition());
            assertEquals(10, report.scannedRecords());
            assertEquals(10, report.redispatchedRecords());
            assertEquals(expected("m", 20), bodies(store, SIMPLE_TOPIC, 0));
            assertEquals(20, appendOk(store, draft(SIMPLE_TOPIC, 0, "m20")).queueOffset());
        }
    }

    @Test
    void shouldTrimConsumeQueuesThatAreAheadOfTheLog() throws IOException {
        AppendResult firstLost;
        try (MessageStore store = StoreFixture.open(root)) {
            appendMany(store, SIMPLE_TOPIC, 0, "m", 0, 10);
            firstLost = appendOk(store, draft("ghost", 0, "lost-0"));
            appendOk(store, draft(SIMPLE_TOPIC, 0, "lost-10"));
            appendOk(store, draft("ghost", 0, "lost-1"));
            awaitDispatched(store);
            store.haltWithoutCleanShutdown();
        }
        // The consume queues reached the disk but the log's last records did not.
        StoreFixture.zeroLogFrom(root, firstLost.position());

        try (MessageStore store = StoreFixture.open(root)) {
            RecoveryReport report = store.recoveryReport();
            assertEquals(firstLost.position(), report.endPosition());
            assertEquals(3, report.truncatedSlots());
            assertEquals(expected("m", 10), bodies(store, SIMPLE_TOPIC, 0));
            GetResult ghost = store.getMessages("ghost", 0, 0, 32, ALL_BYTES, null);
            assertEquals(GetStatus.NO_MESSAGE_IN_QUEUE, ghost.status());
            assertEquals(0, ghost.nextOffset());
            assertEquals(10, appendOk(store, draft(SIMPLE_TOPIC, 0, "m10")).queueOffset());
            assertEquals(0, appendOk(store, draft("ghost", 0, "again")).queueOffset());
            awaitMaxOffset(store, "ghost", 0, 1);
            assertEquals(expected("m", 11), bodies(store, SIMPLE_TOPIC, 0));
        }
    }

    @Test
    void shouldRebuildASharedBatchSlotThatReachesPastTheLogEnd() throws IOException {
        StoreSettings.Builder b = StoreFixture.settings(root);
        b.index(IndexSettings.defaults(root).withBatchCqUnitMaxBytes(64 * 1024));
        b.log().flushMode(FlushMode.SYNC); // so that a checkpoint reaches the dispatch point
        StoreSettings settings = b.build();
        AppendResult firstLost;
        try (MessageStore store = MessageStore.open(settings, StoreFixture.TYPES)) {
            List<AppendResult> first = appendMany(store, BATCH_TOPIC, 0, "m", 0, 5);
            awaitMaxOffset(store, BATCH_TOPIC, 0, 5);
            // A checkpoint inside the slot: recovery must re-dispatch from the slot's start, not from here. The
            // checkpoint follows the flushed dispatch point, which may trail the queue's max offset for a moment.
            Await.until("a checkpoint past the first record", () -> {
                try {
                    return store.checkpoint() > first.get(0).position();
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            });
            appendMany(store, BATCH_TOPIC, 0, "m", 5, 10);
            firstLost = appendOk(store, draft(BATCH_TOPIC, 0, "lost-10"));
            awaitMaxOffset(store, BATCH_TOPIC, 0, 11);
            assertEquals(11, store.getMessages(BATCH_TOPIC, 0, 0, 1, ALL_BYTES, null).messageCount(),
                    "records back to back share a slot");
            store.haltWithoutCleanShutdown();
        }
        // The consume queue reached the disk but the log's last record did not: the shared slot reaches past the end.
        StoreFixture.zeroLogFrom(root, firstLost.position());

        try (MessageStore store = MessageStore.open(settings, StoreFixture.TYPES)) {
            RecoveryReport report = store.recoveryReport();
            assertEquals(firstLost.position(), report.endPosition());
            assertEquals(expected("m", 10), bodies(store, BATCH_TOPIC, 0), "the slot's first records are indexed again");
            assertEquals(10, appendOk(store, draft(BATCH_TOPIC, 0, "m10")).queueOffset());
            awaitMaxOffset(store, BATCH_TOPIC, 0, 11);
            assertEquals(expected("m", 11), bodies(store, BATCH_TOPIC, 0));
        }
    }

    @Test
    void shouldRebuildEveryConsumeQueueWhenTheyAndTheCheckpointAreGone() throws IOException {
        try (MessageStore store = StoreFixture.open(root)) {
            for (int i = 0; i < 600; i++) {
                appendOk(store, draft(i % 2 == 0 ? SIMPLE_TOPIC : "other", i % 4, "x".repeat(500) + i));
            }
            appendOk(store, batch(BATCH_TOPIC, 2, AppendKind.INNER_BATCH, "a", "b", "c"));
            awaitDispatched(store);
            assertTrue(store.stats().writtenPosition() > 2L * StoreFixture.SEGMENT_BYTES, "several segments");
        }
        deleteTree(root.resolve("consumequeue"));
        deleteTree(root.resolve("batchconsumequeue"));
        Files.delete(root.resolve(CheckpointDescriptor.FILE_NAME));

        try (MessageStore store = StoreFixture.open(root)) {
            RecoveryReport report = store.recoveryReport();
            assertEquals(-1, report.checkpointPosition());
            assertEquals(0, report.fromPosition());
            assertEquals(601, report.redispatchedRecords());
            assertEquals(150, store.maxOffset(SIMPLE_TOPIC, 0));
            assertEquals(150, store.maxOffset("other", 3));
            assertEquals(3, store.maxOffset(BATCH_TOPIC, 2));
            assertEquals(150, appendOk(store, draft(SIMPLE_TOPIC, 2, "next")).queueOffset());
        }
    }

    @Test
    void shouldIgnoreADamagedCheckpointAndScanFromTheStart() throws IOException {
        try (MessageStore store = StoreFixture.open(root)) {
            appendMany(store, SIMPLE_TOPIC, 0, "m", 0, 8);
        }
        StoreFixture.overwrite(root.resolve(CheckpointDescriptor.FILE_NAME),
                CheckpointDescriptor.DISPATCHED_POSITION_OFFSET, new byte[] {1, 2, 3});

        try (MessageStore store = StoreFixture.open(root)) {
            assertEquals(-1, store.recoveryReport().checkpointPosition());
            assertEquals(8, store.recoveryReport().scannedRecords());
            assertEquals(0, store.recoveryReport().redispatchedRecords(), "the queues were complete");
            assertEquals(expected("m", 8), bodies(store, SIMPLE_TOPIC, 0));
        }
    }

    @Test
    void shouldRecoverTwiceInARowAfterCrashes() throws IOException {
        try (MessageStore store = StoreFixture.open(root)) {
            appendMany(store, SIMPLE_TOPIC, 0, "m", 0, 5);
            awaitDispatched(store);
            store.haltWithoutCleanShutdown();
        }
        try (MessageStore store = StoreFixture.open(root)) {
            assertTrue(store.recoveryReport().crashed());
            appendMany(store, SIMPLE_TOPIC, 0, "m", 5, 10);
            awaitDispatched(store);
            store.haltWithoutCleanShutdown();
        }
        try (MessageStore store = StoreFixture.open(root)) {
            assertTrue(store.recoveryReport().crashed());
            assertEquals(expected("m", 10), bodies(store, SIMPLE_TOPIC, 0));
        }
        assertFalse(new AbortMarker(root).isPresent());
    }

    private static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
