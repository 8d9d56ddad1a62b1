package io.sluice.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.store.dispatch.DispatchSettings;
import io.sluice.store.dispatch.SerialDispatcher;
import io.sluice.store.index.SlotAppendStatus;
import io.sluice.store.index.ConsumeQueueTable;
import io.sluice.store.index.IndexSettings;
import io.sluice.store.index.StoreTimeLookup;
import io.sluice.store.log.AppendResult;
import io.sluice.testing.Await;
import io.sluice.store.log.CommitLog;
import io.sluice.store.log.LogEnvironment;
import io.sluice.format.RecordDescriptor;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.agrona.concurrent.SystemEpochClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The read statuses that need a log and index in states the façade never produces on its own. */
class MessageReaderTest {

    @TempDir
    Path root;

    private CommitLog log;
    private ConsumeQueueTable queues;
    private MessageReader reader;

    @BeforeEach
    void open() throws IOException {
        StoreSettings settings = StoreFixture.settings(root).build();
        log = CommitLog.open(settings.log(), LogEnvironment.system());
        log.recover(0, true, e -> { });
        queues = ConsumeQueueTable.open(IndexSettings.defaults(root), StoreFixture.TYPES, StoreTimeLookup.NONE);
        reader = new MessageReader(log, queues);
    }

    @AfterEach
    void close() {
        queues.close();
        log.close();
    }

    @Test
    void shouldSayMessageWasRemovingWhenTheRecordsAreDeletedButNotYetTrimmed() throws IOException {
        for (int i = 0; i < 5; i++) {
            append("orders", 0, 1_000);
        }
        AppendResult last;
        do {
            last = append("other", 0, 1_000);
        } while (last.position() < StoreFixture.SEGMENT_BYTES);
        dispatchAll();

        log.deleteExpiredSegments(System.currentTimeMillis(), 0, true, 1);

        GetResult r = reader.get("orders", 0, 0, 32, 1 << 20, null);
        assertEquals(GetStatus.MESSAGE_WAS_REMOVING, r.status());
        assertEquals(5, r.nextOffset());
        assertTrue(r.records().isEmpty());
        GetResult other = reader.get("other", 0, 0, 256, 1 << 20, null);
        assertEquals(GetStatus.FOUND, other.status(), "records of the next segment are still served");
        assertEquals(List.of(last.position()), other.records().stream()
                .map(b -> b.getLong(RecordDescriptor.PHYSICAL_OFFSET_OFFSET)).toList());
    }

    @Test
    void shouldSayOffsetFoundNullWhenASlotPointsWhereTheLogHasNothing() {
        AppendResult real = append("orders", 0, 10);
        assertEquals(SlotAppendStatus.APPENDED, queues.getOrCreate("ghost", 0).append(
                new DispatchEntry("ghost", 0, 0, 1, real.nextPosition() + 4_096, 100, 0, 0, 0)));

        GetResult r = reader.get("ghost", 0, 0, 32, 1 << 20, null);

        assertEquals(GetStatus.OFFSET_FOUND_NULL, r.status());
        assertEquals(0, r.nextOffset());
        assertEquals(1, r.maxOffset());
    }

    @Test
    void shouldBoundTheSlotsScannedForAFilter() throws IOException {
        for (int i = 0; i < MessageReader.MAX_FILTER_SCAN_SLOTS + 100; i++) {
            append("orders", 0, 1);
        }
        dispatchAll();

        GetResult r = reader.get("orders", 0, 0, 32, 1 << 20, code -> false);

        assertEquals(GetStatus.NO_MATCHED_MESSAGE, r.status());
        assertEquals(MessageReader.MAX_FILTER_SCAN_SLOTS, r.nextOffset());
    }

    private AppendResult append(String topic, int queueId, int bodyBytes) {
        return Await.result(log.append(StoreFixture.draft(topic, queueId, new byte[bodyBytes], "")));
    }

    private void dispatchAll() throws IOException {
        try (SerialDispatcher d = new SerialDispatcher(log, queues, DispatchSettings.defaults(), List.of(),
                SystemEpochClock.INSTANCE)) {
            assertEquals(log.writtenPosition(), d.redispatch(0));
        }
    }
}
