package io.sluice.remoting.protocol;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A body whose bytes also lie in files ({@link RemotingCommand#setBody(ByteBuffer[], FileSlice[])}) is read from the
 * files into the frame: the frame must be exactly the one encoded from memory, and when a file cannot be read the
 * memory is used.
 */
@Timeout(30)
class FrameCodecFilesTest {

    private static final int FILE_BYTES = 1 << 16;

    @TempDir
    Path dir;

    private final FrameCodec codec = new FrameCodec(1 << 20);
    private final byte[] fileBytes = new byte[FILE_BYTES];
    private FileChannel file;
    private FileChannel other;

    @BeforeEach
    void writeFiles() throws IOException {
        new Random(7).nextBytes(fileBytes);
        Files.write(dir.resolve("a"), fileBytes);
        Files.write(dir.resolve("b"), fileBytes);
        file = FileChannel.open(dir.resolve("a"), StandardOpenOption.READ);
        other = FileChannel.open(dir.resolve("b"), StandardOpenOption.READ);
    }

    @AfterEach
    void closeFiles() throws IOException {
        file.close();
        other.close();
    }

    /** A command whose body is {@code ranges} ({position, length} pairs) of {@code channels[i]}'s file. */
    private RemotingCommand command(FileChannel[] channels, int[][] ranges) {
        ByteBuffer[] views = new ByteBuffer[ranges.length];
        FileSlice[] slices = new FileSlice[ranges.length];
        for (int i = 0; i < ranges.length; i++) {
            views[i] = ByteBuffer.allocateDirect(ranges[i][1]).put(fileBytes, ranges[i][0], ranges[i][1]).flip();
            slices[i] = new FileSlice(channels[i], ranges[i][0], ranges[i][1], this);
        }
        return RemotingCommand.response(ResponseCode.SUCCESS, "FOUND").putExtField("nextBeginOffset", 42L)
                .setBody(views, slices);
    }

    /** The frame encoded from the command (its files, when it has them), as bytes; releases the buffer. */
    private byte[] encoded(RemotingCommand command) throws FrameException {
        ByteBuf frame = codec.encode(command, ByteBufAllocator.DEFAULT);
        try {
            return ByteBufUtil.getBytes(frame);
        } finally {
            frame.release();
        }
    }

    /** The frame of the same command encoded from memory: the parts only. */
    private byte[] fromMemory(RemotingCommand command) throws FrameException {
        RemotingCommand copy = RemotingCommand.response(command.code(), command.remark())
                .putExtField("nextBeginOffset", 42L).setBody(command.bodyBuffers());
        return encoded(copy);
    }

    @Test
    void aBodyInFilesIsReadIntoTheFrameWithTheBytesOfTheMemoryOne() throws Exception {
        RemotingCommand command = command(new FileChannel[] {file, file, other, file},
                new int[][] {{100, 3000}, {3100, 5000}, {8100, 2000}, {20000, 1500}});
        byte[] bytes = encoded(command);
        assertArrayEquals(fromMemory(command), bytes);
        RemotingCommand decoded = codec.decode(Unpooled.wrappedBuffer(bytes)
                .skipBytes(FrameDescriptor.LENGTH_FIELD_BYTES));
        assertEquals(11_500, decoded.bodyBytes());
        assertEquals(42L, Long.parseLong(decoded.extFields().get("nextBeginOffset")));
        assertEquals(0, codec.fileReadFailures());
    }

    @Test
    void randomSliceLayoutsGiveTheSameFrame() throws Exception {
        Random random = new Random(11);
        for (int round = 0; round < 200; round++) {
            int count = 1 + random.nextInt(6);
            FileChannel[] channels = new FileChannel[count];
            int[][] ranges = new int[count][];
            int at = random.nextInt(1000);
            for (int i = 0; i < count; i++) {
                int length = 1 + random.nextInt(3000);
                if (at + length > FILE_BYTES || random.nextInt(3) == 0) {
                    at = random.nextInt(FILE_BYTES - length);
                }
                channels[i] = random.nextInt(4) == 0 ? other : file;
                ranges[i] = new int[] {at, length};
                at += length;
            }
            RemotingCommand command = command(channels, ranges);
            assertArrayEquals(fromMemory(command), encoded(command), "round " + round);
        }
    }

    @Test
    void withoutReadingFilesTheBodyIsWrappedNotCopied() throws Exception {
        RemotingCommand command = command(new FileChannel[] {file}, new int[][] {{0, 4000}});
        ByteBuf frame = codec.encode(command, ByteBufAllocator.DEFAULT, false);
        try {
            assertTrue(frame instanceof io.netty.buffer.CompositeByteBuf, "the parts are wrapped: " + frame);
            assertArrayEquals(fromMemory(command), ByteBufUtil.getBytes(frame));
        } finally {
            frame.release();
        }
    }

    @Test
    void aFileThatCannotBeReadLeavesTheBodyToItsParts() throws Exception {
        RemotingCommand command = command(new FileChannel[] {file, other}, new int[][] {{0, 4000}, {4000, 100}});
        byte[] expected = fromMemory(command);
        other.close();
        assertArrayEquals(expected, encoded(command));
        assertEquals(1, codec.fileReadFailures());
        assertTrue(file.isOpen(), "the codec closes no channel");
    }

    @Test
    void filesThatDoNotHoldTheBodysBytesAreRefusedAndAnotherBodyDropsThem() throws Exception {
        ByteBuffer[] views = {ByteBuffer.allocate(2000)};
        FileSlice[] shorter = {new FileSlice(file, 0, 1999, this)};
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> RemotingCommand.response(ResponseCode.SUCCESS, "").setBody(views, shorter));
        assertEquals("the files hold 1999 bytes, the body 2000", e.getMessage());

        RemotingCommand command = command(new FileChannel[] {file}, new int[][] {{0, 4000}});
        byte[] replacement = new byte[3000];
        java.util.Arrays.fill(replacement, (byte) 9);
        command.setBody(replacement);
        RemotingCommand decoded = codec.decode(Unpooled.wrappedBuffer(encoded(command))
                .skipBytes(FrameDescriptor.LENGTH_FIELD_BYTES));
        assertArrayEquals(replacement, decoded.body(), "the new body, not the files");
    }
}
