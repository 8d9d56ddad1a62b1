package io.sluice.store;

import static io.sluice.store.StoreFixture.BATCH_TOPIC;
import static io.sluice.store.StoreFixture.appendOk;
import static io.sluice.store.StoreFixture.batch;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.store.dispatch.DispatchSettings;
import io.sluice.store.dispatch.SerialDispatcher;
import io.sluice.store.index.ConsumeQueue;
import io.sluice.store.index.ConsumeQueueTable;
import io.sluice.store.index.IndexSettings;
import io.sluice.store.index.SlotBatch;
import io.sluice.store.index.SlotReadStatus;
import io.sluice.store.index.StoreTimeLookup;
import io.sluice.store.log.AppendKind;
import io.sluice.store.log.AppendResult;
import io.sluice.testing.Await;
import io.sluice.store.log.CommitLog;
import io.sluice.store.log.LogEnvironment;
import io.sluice.format.RecordDescriptor;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntConsumer;
import java.util.concurrent.TimeUnit;
import org.agrona.concurrent.SystemEpochClock;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageDecoder;
import org.apache.rocketmq.common.message.MessageExt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Pulls from shared BatchCQ slots: a slot holding several records is returned whole from its start, and from the
 * record holding the offset when a pull starts inside it; reading a queue by nextOffset while it is written sees
 * every message once, in order.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SharedBatchSlotReadTest {

    private static final int ALL_BYTES = 1 << 24;

    @TempDir
    Path root;

    @Test
    void aPullInsideASharedSlotStartsAtTheRecordHoldingTheOffset() throws IOException {
        StoreSettings settings = StoreFixture.settings(root).build();
        try (CommitLog log = CommitLog.open(settings.log(), LogEnvironment.system())) {
            log.recover(0, true, e -> { });
            try (ConsumeQueueTable queues = ConsumeQueueTable.open(
                    IndexSettings.defaults(root).withBatchCqUnitMaxBytes(64 * 1024), StoreFixture.TYPES,
                    StoreTimeLookup.NONE)) {
                for (int i = 0; i < 5; i++) {
                    Await.result(log.append(batch(BATCH_TOPIC, 0, AppendKind.INNER_BATCH, "a" + i, "b" + i, "c" + i)));
                }
                try (SerialDispatcher d = new SerialDispatcher(log, queues, DispatchSettings.defaults(), List.of(),
                        SystemEpochClock.INSTANCE)) {
                    assertEquals(log.writtenPosition(), d.redispatch(0));
                }
                MessageReader reader = new MessageReader(log, queues);

                GetResult whole = reader.get(BATCH_TOPIC, 0, 0, 1, ALL_BYTES, null);
                assertEquals(15, whole.messageCount(), "records back to back: one slot, returned whole");
                assertEquals(15, whole.nextOffset());
                assertEquals(List.of(0L, 3L, 6L, 9L, 12L), recordOffsets(whole.records().get(0)));

                for (long offset = 0; offset < 15; offset++) {
                    GetResult inside = reader.get(BATCH_TOPIC, 0, offset, 1, ALL_BYTES, null);
                    long first = offset - offset % 3;
                    assertEquals(15 - first, inside.messageCount(), "from offset " + offset);
                    assertEquals(15, inside.nextOffset());
                    assertEquals(first, recordOffsets(inside.records().get(0)).get(0), "from offset " + offset);
                    assertEquals(inside.totalBytes(), inside.records().get(0).remaining());
                }
            }
        }
    }

    @Test
    void theQueuesMemoryOfItsNewestRecordsAnswersAsTheWalkOfItsSpanningSlot() throws IOException {
        StoreSettings settings = StoreFixture.settings(root).build();
        try (CommitLog log = CommitLog.open(settings.log(), LogEnvironment.system())) {
            log.recover(0, true, e -> { });
            try (ConsumeQueueTable queues = ConsumeQueueTable.open(
                    IndexSettings.defaults(root).withBatchCqUnitMaxBytes(64 * 1024), StoreFixture.TYPES,
                    StoreTimeLookup.NONE)) {
                // Queue 0's records with queue 1's between them: one slot of queue 0 spans queue 1's records.
                for (int i = 0; i < 24; i++) {
                    Await.result(log.append(batch(BATCH_TOPIC, i % 2, AppendKind.INNER_BATCH, "a" + i, "b" + i)));
                }
                try (SerialDispatcher d = new SerialDispatcher(log, queues, DispatchSettings.defaults(), List.of(),
                        SystemEpochClock.INSTANCE)) {
                    assertEquals(log.writtenPosition(), d.redispatch(0));
                }
                ConsumeQueue queue = queues.find(BATCH_TOPIC, 0).orElseThrow();
                SlotBatch slots = new SlotBatch(1);
                int answered = 0;
                for (long offset = 0; offset < 24; offset++) {
                    assertEquals(SlotReadStatus.FOUND, queue.read(offset, slots));
                    long endOffset = slots.baseOffset(0) + slots.batchCount(0);
                    ByteBuffer slot = log.readRecord(slots.position(0), slots.sizeBytes(0)).buffer();
                    List<ByteBuffer> walked = new ArrayList<>();
                    long walkedFirst = SlotRecords.collect(slot, BATCH_TOPIC, 0, offset, endOffset, walked);
                    List<long[]> remembered = new ArrayList<>();
                    long slotEnd = slots.position(0) + slots.sizeBytes(0);
                    long first = queue.findRecent(offset, endOffset, slots.position(0), slotEnd,
                            (at, bytes) -> remembered.add(new long[] {at, bytes}),
                            new long[queue.recentScratchLongs()]);
                    if (first < 0) {
                        continue; // older than what the queue remembers: the walk answers
                    }
                    answered++;
                    assertEquals(walkedFirst, first, "from offset " + offset);
                    assertEquals(walked.size(), remembered.size(), "from offset " + offset);
                    for (int r = 0; r < walked.size(); r++) {
                        ByteBuffer view = walked.get(r);
                        assertEquals(view.getLong(RecordDescriptor.PHYSICAL_OFFSET_OFFSET), remembered.get(r)[0]);
                        assertEquals(view.remaining(), remembered.get(r)[1], "from offset " + offset);
                    }
                }
                assertTrue(answered >= 16, "the newest records are remembered: " + answered + " of 24 offsets");
            }
        }
    }

    @Test
    void aSlotWhoseSizeRunsAheadOfItsCountReturnsOnlyTheCountedRecords() throws IOException {
        StoreSettings settings = StoreFixture.settings(root).build();
        try (CommitLog log = CommitLog.open(settings.log(), LogEnvironment.system())) {
            log.recover(0, true, e -> { });
            AppendResult first = Await.result(log.append(batch(BATCH_TOPIC, 0, AppendKind.INNER_BATCH, "a", "b")));
            AppendResult second = Await.result(log.append(batch(BATCH_TOPIC, 0, AppendKind.INNER_BATCH, "c", "d")));
            int both = (int) (second.nextPosition() - first.position());
            // What a reader sees while the writer grows a slot: the new size, still the old count. The walk of the
            // slot's records must stop at the count. (The queue's memory of its newest records, RecentRecords, holds
            // each record's own count and size, and stops there too: RecentRecordsTest.)
            List<ByteBuffer> records = new ArrayList<>();
            ByteBuffer slot = log.readRecord(first.position(), both).buffer();
            assertEquals(0, SlotRecords.collect(slot, BATCH_TOPIC, 0, 0, 2, records));
            assertEquals(1, records.size());
            assertEquals(List.of(0L), recordOffsets(records.get(0)), "the uncounted record is not sent");
            assertEquals(second.position() - first.position(), records.get(0).remaining());
        }
    }

    @Test
    void readingByNextOffsetWhileWritingSeesEveryMessageOnce() throws Exception {
        StoreSettings.Builder b = StoreFixture.settings(root);
        b.index(IndexSettings.defaults(root).withBatchCqUnitMaxBytes(4 * 1024));
        try (MessageStore store = MessageStore.open(b.build(), StoreFixture.TYPES)) {
            readWhileWriting(store, i -> { });
            assertTrue(store.getMessages(BATCH_TOPIC, 2, 0, 1, ALL_BYTES, null).messageCount() >= 2);
        }
    }

    @Test
    void readingByNextOffsetPastOtherQueuesRecordsSeesEveryMessageOnce() throws Exception {
        StoreSettings.Builder b = StoreFixture.settings(root);
        b.index(IndexSettings.defaults(root).withBatchCqUnitMaxBytes(4 * 1024)
                .withBatchCqSpan(64 * 1024, StoreFixture.SEGMENT_BYTES));
        try (MessageStore store = MessageStore.open(b.build(), StoreFixture.TYPES)) {
            readWhileWriting(store, i -> {
                appendOk(store, batch(BATCH_TOPIC, 3, AppendKind.INNER_BATCH, "not-mine" + i));
                appendOk(store, StoreFixture.draft("other", 2, "another topic's queue 2"));
            });
            GetResult fromStart = store.getMessages(BATCH_TOPIC, 2, 0, 1, ALL_BYTES, null);
            assertTrue(fromStart.messageCount() > 2, "the first slot spans the other queues' records: "
                    + fromStart.messageCount() + " messages in " + fromStart.records().size() + " views");
            assertTrue(fromStart.records().size() > 1, "its own records are not back to back");
        }
    }

    /**
     * Writes 600 batches of two messages to BATCH_TOPIC-2 on another thread, {@code between} each (the batch
     * number given), and reads the queue by nextOffset meanwhile: every message once, in order, only this queue's.
     */
    private static void readWhileWriting(MessageStore store, IntConsumer between) throws Exception {
        int batches = 600;
        Thread writer = new Thread(() -> {
            for (int i = 0; i < batches; i++) {
                appendOk(store, batch(BATCH_TOPIC, 2, AppendKind.INNER_BATCH, "x" + i, "y" + i));
                between.accept(i);
            }
        }, "shared-slot-writer");
        writer.start();
        long next = 0;
        List<String> bodies = new ArrayList<>();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(50);
        while (next < 2L * batches && System.nanoTime() < deadline) {
            GetResult r = store.getMessages(BATCH_TOPIC, 2, next, 32, ALL_BYTES, null);
            if (r.status() != GetStatus.FOUND) {
                Thread.onSpinWait();
                continue;
            }
            long expected = next;
            List<List<Long>> seen = new ArrayList<>();
            long bytes = 0;
            for (ByteBuffer unit : r.records()) {
                seen.add(recordOffsets(unit));
                bytes += unit.remaining();
            }
            String what = "pull at " + next + ": " + seen + " next " + r.nextOffset() + " count " + r.messageCount();
            for (ByteBuffer unit : r.records()) {
                for (MessageExt record : MessageDecoder.decodesBatch(unit.duplicate(), true, false, true)) {
                    assertEquals(BATCH_TOPIC, record.getTopic(), what);
                    assertEquals(2, record.getQueueId(), what);
                    assertEquals(expected, record.getQueueOffset(), what);
                    for (Message m : MessageDecoder.decodeMessages(ByteBuffer.wrap(record.getBody()))) {
                        bodies.add(new String(m.getBody()));
                    }
                    expected += 2;
                }
            }
            assertEquals(expected, r.nextOffset(), what);
            assertEquals(expected - next, r.messageCount(), what);
            assertEquals(bytes, r.totalBytes(), what);
            next = r.nextOffset();
        }
        writer.join(TimeUnit.SECONDS.toMillis(10));
        assertEquals(2L * batches, next);
        for (int i = 0; i < batches; i++) {
            assertEquals("x" + i, bodies.get(2 * i));
            assertEquals("y" + i, bodies.get(2 * i + 1));
        }
    }

    private static List<Long> recordOffsets(ByteBuffer unit) {
        List<Long> offsets = new ArrayList<>();
        int at = unit.position();
        while (at < unit.limit()) {
            offsets.add(unit.getLong(at + RecordDescriptor.QUEUE_OFFSET_OFFSET));
            at += unit.getInt(at + RecordDescriptor.TOTAL_SIZE_OFFSET);
        }
        return offsets;
    }
}
