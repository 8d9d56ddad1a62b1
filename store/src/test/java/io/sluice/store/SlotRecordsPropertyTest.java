package io.sluice.store;

import static io.sluice.store.StoreFixture.BATCH_TOPIC;
import static io.sluice.store.StoreFixture.batch;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.store.log.AppendKind;
import io.sluice.store.log.AppendResult;
import io.sluice.store.log.CommitLog;
import io.sluice.store.log.LogEnvironment;
import io.sluice.store.log.ReadResult;
import io.sluice.testing.Await;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

/**
 * A spanning BatchCQ slot read back: whatever the other queues' and topics' records between, from whatever offset
 * inside the slot and whatever count the slot has published, the reader gets exactly the queue's own records from
 * the one holding the offset to the last one the count covers, in order, records back to back in one view.
 */
class SlotRecordsPropertyTest {

    /** Owner 0: the queue read (BATCH_TOPIC-0); 1: another queue of its topic; 2: queue 0 of another topic. */
    @Property(tries = 60)
    void aSlotYieldsExactlyItsOwnRecordsFromTheOneHoldingTheOffset(
            @ForAll @Size(min = 1, max = 20) List<@IntRange(min = 0, max = 2) Integer> owners,
            @ForAll @Size(value = 20) List<@IntRange(min = 1, max = 4) Integer> counts) throws IOException {
        Path root = Files.createTempDirectory("slot-records");
        try (CommitLog log = CommitLog.open(StoreFixture.settings(root).build().log(), LogEnvironment.system())) {
            log.recover(0, true, e -> { });
            List<AppendResult> own = new ArrayList<>();
            List<Integer> ownCounts = new ArrayList<>();
            for (int i = 0; i < owners.size(); i++) {
                int owner = owners.get(i);
                String[] bodies = new String[counts.get(i)];
                Arrays.setAll(bodies, k -> "m" + k);
                AppendResult r = Await.result(log.append(batch(owner == 2 ? "other" : BATCH_TOPIC,
                        owner == 1 ? 1 : 0, AppendKind.INNER_BATCH, bodies)));
                if (owner == 0) {
                    own.add(r);
                    ownCounts.add(counts.get(i));
                }
            }
            if (own.isEmpty()) {
                return;
            }
            long start = own.get(0).position();
            long end = own.get(own.size() - 1).nextPosition();
            ByteBuffer slot = log.readRecord(start, (int) (end - start)).buffer();
            long[] offsets = new long[own.size() + 1];
            for (int k = 0; k < own.size(); k++) {
                offsets[k + 1] = offsets[k] + ownCounts.get(k);
                assertEquals(offsets[k], own.get(k).queueOffset());
            }
            // endOffset: the whole count, or a count that covers only the first records (size ahead of count).
            for (int last = 0; last < own.size(); last++) {
                long endOffset = offsets[last + 1];
                for (long from = 0; from < endOffset; from++) {
                    int first = 0;
                    while (offsets[first + 1] <= from) {
                        first++;
                    }
                    List<ByteBuffer> out = new ArrayList<>();
                    ByteBuffer sentinel = ByteBuffer.allocate(1);
                    out.add(sentinel);
                    long firstOffset = SlotRecords.collect(slot.duplicate(), BATCH_TOPIC, 0, from, endOffset, out);
                    String what = "owners " + owners + ", from " + from + ", end offset " + endOffset;
                    assertEquals(offsets[first], firstOffset, what);
                    assertSame(sentinel, out.get(0), "what was there is kept");
                    assertEquals(expectedViews(own, first, last), out.size() - 1, what);
                    assertEquals(Arrays.toString(ownBytes(log, own, first, last)),
                            Arrays.toString(concat(out.subList(1, out.size()))), what);
                }
            }
            assertEquals(-1, SlotRecords.collect(slot.duplicate(), BATCH_TOPIC, 0, 0, 0, new ArrayList<>()),
                    "a count of nothing yields nothing");
        } finally {
            try (Stream<Path> files = Files.walk(root)) {
                for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                    Files.delete(p);
                }
            }
        }
    }

    /** Views expected: one per run of own records back to back. */
    private static int expectedViews(List<AppendResult> own, int first, int last) {
        int views = 1;
        for (int k = first + 1; k <= last; k++) {
            if (own.get(k).position() != own.get(k - 1).nextPosition()) {
                views++;
            }
        }
        return views;
    }

    private static byte[] ownBytes(CommitLog log, List<AppendResult> own, int first, int last) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        for (int k = first; k <= last; k++) {
            AppendResult r = own.get(k);
            ReadResult read = log.readRecord(r.position(), (int) (r.nextPosition() - r.position()));
            assertTrue(read.isFound());
            bytes.writeBytes(StoreFixture.bytes(read.buffer()));
        }
        return bytes.toByteArray();
    }

    private static byte[] concat(List<ByteBuffer> views) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        views.forEach(v -> bytes.writeBytes(StoreFixture.bytes(v.duplicate())));
        return bytes.toByteArray();
    }
}
