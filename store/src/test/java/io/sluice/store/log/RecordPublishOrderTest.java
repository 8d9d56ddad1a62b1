package io.sluice.store.log;

import io.sluice.format.MessageIdDescriptor;
import io.sluice.format.BatchBodyDescriptor;
import io.sluice.format.RecordDescriptor;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.store.DispatchEntry;
import java.util.ArrayList;
import java.util.List;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

/**
 * The publish order of {@link RecordDescriptor}: a record copy stopped at any byte, as a process crash can stop
 * it, reads as no record at all (an unpacked batch as no batch at all), never as a complete record with a
 * damaged tail. Every store {@link PreparedAppend#write} makes is logged ({@link StoreLogBuffer}) and replayed
 * onto zeros one byte at a time; each intermediate state is parsed the way recovery parses a segment.
 */
class RecordPublishOrderTest {

    private static final int CAPACITY = 64 * 1024;
    /** An odd index: records are not aligned. */
    private static final int INDEX = 4_099;
    private static final long POSITION = 7L * LogFixture.SEGMENT_BYTES + INDEX;
    private static final long BASE_QUEUE_OFFSET = 1_234_567;
    private static final long STORE_TIMESTAMP_MS = 1_700_000_000_123L;

    private final DraftEncoder encoder = new DraftEncoder(LogFixture.MAX_MESSAGE_BYTES, LogFixture.SEGMENT_BYTES,
            false);
    private final byte[] storeHostBytes = MessageIdDescriptor.hostBytes(LogFixture.STORE_HOST);

    @Test
    void aSingleRecordIsAbsentUntilItsTotalSizeIsStoredLast() {
        MessageDraft draft = LogFixture.draft("Order", 3, LogFixture.filled(300, 1),
                "UNIQ_KEY\u0001AC1100010000000000000000000001\u0002TAGS\u0001tagA\u0002KEYS\u0001k1 k2\u0002");
        assertEveryCrashPointReadsAsAbsent(draft, 1);
    }

    @Test
    void anInnerBatchIsAbsentUntilItsTotalSizeIsStoredLast() {
        List<BatchBodyDescriptor.Message> messages = new ArrayList<>();
        for (int m = 0; m < 3; m++) {
            messages.add(new BatchBodyDescriptor.Message(0, LogFixture.filled(120, m), "TAGS\u0001t" + m + "\u0002"));
        }
        MessageDraft draft = LogFixture.draft("Order", 0, BatchBodyDescriptor.encode(messages),
                "UNIQ_KEY\u0001inner\u0002").withKind(AppendKind.INNER_BATCH);
        assertEveryCrashPointReadsAsAbsent(draft, 1);
    }

    @Test
    void anUnpackedBatchIsAbsentUntilItsFirstTotalSizeIsStoredLast() {
        List<BatchBodyDescriptor.Message> messages = new ArrayList<>();
        for (int m = 0; m < 4; m++) {
            messages.add(new BatchBodyDescriptor.Message(m, LogFixture.filled(90 + m, 10 + m),
                    "UNIQ_KEY\u0001id" + m + "\u0002TAGS\u0001t" + m + "\u0002"));
        }
        MessageDraft draft = LogFixture.draft("Order", 1, BatchBodyDescriptor.encode(messages),
                "UNIQ_KEY\u0001batch\u0002").withKind(AppendKind.UNPACKED_BATCH);
        assertEveryCrashPointReadsAsAbsent(draft, 4);
    }

    @Test
    void theBlankRecordIsAbsentUntilItsTotalSizeIsStoredLast() {
        StoreLogBuffer dst = new StoreLogBuffer(CAPACITY);
        int blankBytes = CAPACITY - INDEX;
        PreparedAppend.writeBlank(dst, INDEX, blankBytes);
        assertArrayEquals(dst.byteArray(), dst.replayAll(), "every store was logged");
        UnsafeBuffer replay = new UnsafeBuffer(new byte[CAPACITY]);
        List<StoreLogBuffer.Store> stores = dst.stores();
        for (int s = 0; s < stores.size(); s++) {
            StoreLogBuffer.Store store = stores.get(s);
            for (int b = 0; b < store.bytes().length; b++) {
                ScanResult r = RecordParser.parse(replay, INDEX, blankBytes, blankBytes, POSITION, true);
                if (s < stores.size() - 1) {
                    assertEquals(ScanStatus.NO_MORE_DATA, r.status(), "before store " + s + " byte " + b);
                } else {
                    assertNotEquals(ScanStatus.END_OF_SEGMENT, r.status(), "inside the final store, byte " + b);
                }
                replay.putByte(store.index() + b, store.bytes()[b]);
            }
        }
        assertEquals(ScanStatus.END_OF_SEGMENT,
                RecordParser.parse(replay, INDEX, blankBytes, blankBytes, POSITION, true).status());
    }

    /**
     * Writes the draft through a logging buffer and replays the stores onto zeros byte by byte: until the last
     * store (the first TOTALSIZE) has begun, a recovery-style scan finds nothing at the index; while it is being
     * stored, nothing valid; after it, exactly the records written.
     */
    private void assertEveryCrashPointReadsAsAbsent(MessageDraft draft, int records) {
        PreparedAppend p = (PreparedAppend) encoder.prepare(draft);
        int bytes = p.bytes(BASE_QUEUE_OFFSET);
        StoreLogBuffer dst = new StoreLogBuffer(CAPACITY);
        p.write(dst, INDEX, POSITION, BASE_QUEUE_OFFSET, STORE_TIMESTAMP_MS, storeHostBytes);
        byte[] written = dst.byteArray();
        assertArrayEquals(written, dst.replayAll(), "every store was logged");
        List<StoreLogBuffer.Store> stores = dst.stores();
        for (StoreLogBuffer.Store s : stores) {
            assertTrue(s.index() >= INDEX && s.index() + s.bytes().length <= INDEX + bytes,
                    "store at " + s.index() + " stays inside the record(s)");
        }
        StoreLogBuffer.Store last = stores.get(stores.size() - 1);
        assertEquals(INDEX + RecordDescriptor.TOTAL_SIZE_OFFSET, last.index(), "the last store is the TOTALSIZE");
        assertEquals(Integer.BYTES, last.bytes().length);

        UnsafeBuffer replay = new UnsafeBuffer(new byte[CAPACITY]);
        for (int s = 0; s < stores.size(); s++) {
            StoreLogBuffer.Store store = stores.get(s);
            for (int b = 0; b < store.bytes().length; b++) {
                List<DispatchEntry> found = scan(replay);
                String where = "crash before byte " + b + " of store " + s + " of " + stores.size()
                        + " (index " + store.index() + ")";
                assertEquals(List.of(), found, where + ": a record was taken for complete");
                if (s < stores.size() - 1) {
                    assertEquals(ScanStatus.NO_MORE_DATA, parse(replay, INDEX).status(), where);
                }
                replay.putByte(store.index() + b, store.bytes()[b]);
            }
        }
        List<DispatchEntry> found = scan(replay);
        assertEquals(records, found.size());
        long position = POSITION;
        for (int i = 0; i < records; i++) {
            DispatchEntry e = found.get(i);
            assertEquals(position, e.position());
            assertEquals(records == 1 ? BASE_QUEUE_OFFSET : BASE_QUEUE_OFFSET + i, e.queueOffset());
            position += e.sizeBytes();
        }
        assertEquals(POSITION + bytes, position);
    }

    private static ScanResult parse(UnsafeBuffer buffer, int index) {
        int toEnd = CAPACITY - index;
        return RecordParser.parse(buffer, index, toEnd, toEnd, POSITION + index - INDEX, true);
    }

    /** The valid records from {@link #INDEX} on, as recovery would keep them. */
    private static List<DispatchEntry> scan(UnsafeBuffer buffer) {
        List<DispatchEntry> out = new ArrayList<>();
        int at = INDEX;
        while (true) {
            ScanResult r = parse(buffer, at);
            if (r.status() != ScanStatus.VALID) {
                return out;
            }
            out.add(r.entry());
            at += r.sizeBytes();
        }
    }
}
