package io.sluice.store.log;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link MappedSegment#write(ByteBuffer[], int)} writes at the channel's position when a write starts where the last
 * such write ended, else positionally (one buffer) or after a seek: whatever order writes come in (appends in a row,
 * a jump back, single-buffer writes that continue or jump, a closed channel), every byte must land at its offset.
 */
@Timeout(60)
class MappedSegmentWriteTest {

    private static final int SEGMENT_BYTES = 64 * 1024;

    @TempDir
    Path dir;

    @Test
    void shouldPlaceEveryWriteAtItsOffsetWhateverTheOrder() throws IOException {
        MappedSegment segment = MappedSegment.create(dir, 0, SEGMENT_BYTES, false);
        byte[] expected = new byte[SEGMENT_BYTES];
        Random random = new Random(42);
        int next = 0;
        for (int round = 0; round < 400; round++) {
            int length = 1 + random.nextInt(700);
            int offset;
            switch (random.nextInt(5)) {
                case 0 -> offset = random.nextInt(SEGMENT_BYTES - length); // a jump anywhere
                case 1 -> offset = Math.max(0, next - 1 - random.nextInt(50)); // back, overlapping the last write
                default -> offset = next; // the next append
            }
            if (offset + length > SEGMENT_BYTES) {
                offset = 0;
            }
            byte[] bytes = new byte[length];
            random.nextBytes(bytes);
            System.arraycopy(bytes, 0, expected, offset, length);
            if (random.nextInt(4) == 0) {
                segment.write(ByteBuffer.wrap(bytes), offset); // one buffer: continues, or positional
            } else {
                segment.write(pieces(bytes, random), offset);
            }
            if (random.nextInt(50) == 0) {
                segment.closeChannel(); // the next write opens a channel standing at 0
            }
            next = offset + length;
        }
        byte[] actual = new byte[SEGMENT_BYTES];
        segment.buffer().getBytes(0, actual);
        assertArrayEquals(expected, actual);
        segment.closeChannel();
    }

    /** {@code bytes} as two to four direct buffers. */
    private static ByteBuffer[] pieces(byte[] bytes, Random random) {
        int count = Math.min(bytes.length, 2 + random.nextInt(3));
        ByteBuffer[] pieces = new ByteBuffer[count];
        int from = 0;
        for (int i = 0; i < count; i++) {
            int to = i == count - 1 ? bytes.length : from + 1 + random.nextInt(bytes.length - from - (count - i) + 1);
            pieces[i] = ByteBuffer.allocateDirect(to - from).put(bytes, from, to - from).flip();
            from = to;
        }
        return pieces;
    }
}
