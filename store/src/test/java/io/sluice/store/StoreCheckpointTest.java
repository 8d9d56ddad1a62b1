package io.sluice.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StoreCheckpointTest {

    @TempDir
    Path dir;

    @Test
    void shouldReadBackWhatWasWritten() throws IOException {
        StoreCheckpoint checkpoint = new StoreCheckpoint(dir);
        assertEquals(Optional.empty(), checkpoint.read());
        assertEquals(-1, checkpoint.lastWrittenPosition());

        checkpoint.write(123_456_789L, 1_700_000_000_000L);
        checkpoint.write(987_654_321L, 1_700_000_001_000L);

        assertEquals(Optional.of(new Checkpoint(987_654_321L, 1_700_000_001_000L)), new StoreCheckpoint(dir).read());
        assertEquals(987_654_321L, checkpoint.lastWrittenPosition());
        assertEquals(CheckpointDescriptor.FILE_BYTES, Files.size(checkpoint.file()));
        assertFalse(Files.exists(dir.resolve(CheckpointDescriptor.TEMP_FILE_NAME)), "the temp file was renamed");
    }

    @Test
    void shouldIgnoreADamagedOrForeignFile() throws IOException {
        StoreCheckpoint checkpoint = new StoreCheckpoint(dir);
        checkpoint.write(42, 0);
        byte[] bytes = Files.readAllBytes(checkpoint.file());
        bytes[CheckpointDescriptor.DISPATCHED_POSITION_OFFSET + 7] ^= 1;
        Files.write(checkpoint.file(), bytes);
        assertEquals(Optional.empty(), checkpoint.read(), "CRC mismatch");

        Files.write(checkpoint.file(), new byte[4096]);
        assertEquals(Optional.empty(), checkpoint.read(), "an Apache 4 KiB checkpoint page");
    }

    @Test
    void shouldIgnoreALeftoverTempFile() throws IOException {
        StoreCheckpoint checkpoint = new StoreCheckpoint(dir);
        checkpoint.write(7, 0);
        Files.write(dir.resolve(CheckpointDescriptor.TEMP_FILE_NAME), new byte[] {1, 2, 3});

        assertEquals(7, checkpoint.read().orElseThrow().dispatchedPosition());
        checkpoint.write(8, 0);
        assertEquals(8, checkpoint.read().orElseThrow().dispatchedPosition());
    }

    @Test
    void shouldRejectANegativePosition() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new StoreCheckpoint(dir).write(-1, 0));
        assertTrue(e.getMessage().contains("-1"));
    }

    @Property(tries = 200)
    void encodedCheckpointsDecodeAndEveryFlippedBitIsDetected(@ForAll @LongRange(min = 0) long position,
                                                              @ForAll long writtenAtMs,
                                                              @ForAll @IntRange(min = 0, max = 28 * 8 - 1) int bit) {
        ByteBuffer encoded = CheckpointDescriptor.encode(position, writtenAtMs);
        assertNull(CheckpointDescriptor.problem(encoded));
        assertEquals(position, CheckpointDescriptor.dispatchedPosition(encoded));
        assertEquals(writtenAtMs, CheckpointDescriptor.writtenAtMs(encoded));

        byte[] damaged = new byte[CheckpointDescriptor.FILE_BYTES];
        encoded.duplicate().get(damaged);
        damaged[bit / 8] ^= (byte) (1 << (bit % 8));
        assertNotNull(CheckpointDescriptor.problem(ByteBuffer.wrap(damaged)));
    }
}
