package io.sluice.store.log;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.format.RecordDescriptor;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

/**
 * A replication chunk is whole records only: it ends on a record boundary, within the readable bytes, within the
 * maximum unless its one record is larger (a record is never split), and takes every following record that still
 * fits; a size field that is not positive or runs past the readable bytes ends it.
 */
class RawChunksPropertyTest {

    @Property(tries = 1_000)
    void aChunkIsTheLongestRunOfWholeRecordsThatFits(
            @ForAll @Size(min = 1, max = 12) List<@IntRange(min = 4, max = 300) Integer> sizes,
            @ForAll @IntRange(min = 0, max = 400) int cutFromEnd,
            @ForAll @IntRange(min = 1, max = 2_000) int maxBytes) {
        int total = sizes.stream().mapToInt(Integer::intValue).sum();
        int available = Math.max(0, total - cutFromEnd);
        ByteBuffer view = records(sizes, total);
        int chunk = RawChunks.wholeRecordBytes(view, available, maxBytes);

        List<Integer> boundaries = boundaries(sizes);
        assertTrue(boundaries.contains(chunk), chunk + " is not a record boundary of " + sizes);
        assertTrue(chunk <= available, "within the readable bytes");
        int records = boundaries.indexOf(chunk);
        assertTrue(chunk <= maxBytes || records == 1, "beyond the maximum only as one record larger than it");
        if (records < sizes.size()) {
            int next = sizes.get(records);
            boolean nextFits = chunk + next <= available && (chunk == 0 || chunk + next <= maxBytes);
            assertTrue(!nextFits || chunk >= maxBytes, "the next record fits and was left out: " + sizes
                    + " available " + available + " max " + maxBytes + " chunk " + chunk);
        }
    }

    @Property(tries = 300)
    void aBadSizeFieldEndsTheChunkBeforeIt(
            @ForAll @Size(min = 1, max = 6) List<@IntRange(min = 4, max = 100) Integer> sizes,
            @ForAll @IntRange(min = 0, max = 5) int badIndex,
            @ForAll @IntRange(min = -5, max = 0) int badSize) {
        int at = Math.min(badIndex, sizes.size() - 1);
        int total = sizes.stream().mapToInt(Integer::intValue).sum();
        ByteBuffer view = records(sizes, total);
        int badPosition = boundaries(sizes).get(at);
        view.putInt(badPosition + RecordDescriptor.TOTAL_SIZE_OFFSET, badSize);
        assertEquals(badPosition, RawChunks.wholeRecordBytes(view, total, Integer.MAX_VALUE));
    }

    @Property(tries = 100)
    void fewerThanASizeFieldOfReadableBytesIsNoChunk(@ForAll @IntRange(min = 0, max = 3) int available) {
        ByteBuffer view = records(List.of(40), 40);
        assertEquals(0, RawChunks.wholeRecordBytes(view, available, 1_000));
    }

    /** Records of the given sizes, each with its TOTALSIZE written and filler after it. */
    private static ByteBuffer records(List<Integer> sizes, int total) {
        ByteBuffer view = ByteBuffer.allocate(total).order(RecordDescriptor.BYTE_ORDER);
        int at = 0;
        for (int size : sizes) {
            view.putInt(at + RecordDescriptor.TOTAL_SIZE_OFFSET, size);
            at += size;
        }
        return view;
    }

    /** 0 and the end of every record. */
    private static List<Integer> boundaries(List<Integer> sizes) {
        List<Integer> boundaries = new ArrayList<>();
        int at = 0;
        boundaries.add(at);
        for (int size : sizes) {
            at += size;
            boundaries.add(at);
        }
        return boundaries;
    }
}
