package io.sluice.remoting.protocol;

import static io.sluice.remoting.protocol.Commands.assertSameCommand;
import static io.sluice.remoting.protocol.Commands.decodeFrame;
import static io.sluice.remoting.protocol.Commands.frameBytes;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.CompositeByteBuf;
import io.netty.buffer.PoolArenaMetric;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.buffer.UnpooledByteBufAllocator;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.Map;
import java.util.Random;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

class FrameCodecTest {

    @Provide
    Arbitrary<RemotingCommand> jsonCommands() {
        return Commands.commands(SerializeType.JSON);
    }

    @Provide
    Arbitrary<RemotingCommand> binaryCommands() {
        return Commands.commands(SerializeType.ROCKETMQ);
    }

    @Property(tries = 200)
    void jsonFramesRoundTrip(@ForAll("jsonCommands") RemotingCommand command) throws FrameException {
        assertSameCommand(command, decodeFrame(frameBytes(command)));
    }

    @Property(tries = 200)
    void binaryFramesRoundTrip(@ForAll("binaryCommands") RemotingCommand command) throws FrameException {
        assertSameCommand(command, decodeFrame(frameBytes(command)));
    }

    @Test
    void aLargeBodyOfHeapPartsIsCopiedIntoOneBufferAndOneWithDirectPartsIsNot() throws FrameException {
        byte[] first = new byte[700];
        byte[] second = new byte[900];
        java.util.Arrays.fill(first, (byte) 1);
        java.util.Arrays.fill(second, (byte) 2);
        FrameCodec codec = new FrameCodec(1 << 20);
        RemotingCommand onHeap = RemotingCommand.request(RequestCode.SEND_BATCH_MESSAGE)
                .setBody(new ByteBuffer[] {ByteBuffer.wrap(first), ByteBuffer.wrap(second)});
        ByteBuf copied = codec.encode(onHeap, ByteBufAllocator.DEFAULT);
        ByteBuffer direct = ByteBuffer.allocateDirect(second.length).put(second).flip();
        RemotingCommand withDirect = RemotingCommand.request(RequestCode.SEND_BATCH_MESSAGE)
                .setBody(new ByteBuffer[] {ByteBuffer.wrap(first), direct});
        ByteBuf wrapped = codec.encode(withDirect, ByteBufAllocator.DEFAULT);
        try {
            assertTrue(!(copied instanceof io.netty.buffer.CompositeByteBuf), "heap parts are copied: " + copied);
            assertTrue(wrapped instanceof io.netty.buffer.CompositeByteBuf, "a direct part is wrapped: " + wrapped);
            assertArrayEquals(ByteBufUtil.getBytes(copied), ByteBufUtil.getBytes(wrapped));
            ByteBuf frame = copied.skipBytes(FrameDescriptor.LENGTH_FIELD_BYTES);
            byte[] body = codec.decode(frame).body();
            assertEquals(first.length + second.length, body.length);
            assertEquals(1, body[first.length - 1]);
            assertEquals(2, body[first.length]);
        } finally {
            copied.release();
            wrapped.release();
        }
    }

    @Test
    void aBodyThatMayNotHoldItsFrameIsCopiedIntoAHeldBufferOfTheFramesAllocator() throws FrameException {
        byte[] bytes = new byte[40_000];
        new Random(5).nextBytes(bytes);
        FrameCodec codec = new FrameCodec(1 << 20, code -> code == RequestCode.SEND_BATCH_MESSAGE);
        PooledByteBufAllocator pool = new PooledByteBufAllocator(true);
        ByteBuf frame = codec.encode(RemotingCommand.request(RequestCode.SEND_BATCH_MESSAGE).setBody(bytes), pool);
        long activeBefore = activeDirectAllocations(pool);
        RemotingCommand kept;
        try {
            kept = codec.decode(frame.skipBytes(FrameDescriptor.LENGTH_FIELD_BYTES), false);
            assertEquals(1, frame.refCnt(), "the body does not hold the frame");
            assertEquals(activeBefore + 1, activeDirectAllocations(pool), "the copy comes from the frame's allocator");
        } finally {
            frame.release();
        }
        ByteBuffer view = kept.bodyView();
        assertTrue(view.isDirect(), "no byte[] to zero and collect");
        byte[] read = new byte[view.remaining()];
        view.duplicate().get(read);
        assertArrayEquals(bytes, read, "the copy outlives the frame");
        assertTrue(kept.releaseBody(), "the command holds the copy until it is released");
        assertNull(kept.bodyView());
        assertEquals(activeBefore - 1, activeDirectAllocations(pool), "the copy and the frame are both released");
    }

    private static long activeDirectAllocations(PooledByteBufAllocator pool) {
        return pool.metric().directArenas().stream().mapToLong(PoolArenaMetric::numActiveAllocations)
                .sum();
    }

    @Test
    void aBodyLeftInTheFrameIsAViewHeldUntilReleasedAndOnlyForTheGivenRequestCodes() throws FrameException {
        byte[] bytes = new byte[3000];
        for (int i = 0; i < bytes.length; i++) {
            bytes[i] = (byte) (i * 7);
        }
        FrameCodec codec = new FrameCodec(1 << 20, code -> code == RequestCode.SEND_BATCH_MESSAGE);
        ByteBuf frame = codec.encode(RemotingCommand.request(RequestCode.SEND_BATCH_MESSAGE).setBody(bytes),
                UnpooledByteBufAllocator.DEFAULT);
        ByteBuf other = codec.encode(RemotingCommand.request(RequestCode.SEND_MESSAGE_V2).setBody(bytes),
                UnpooledByteBufAllocator.DEFAULT);
        ByteBuf response = codec.encode(RemotingCommand.response(ResponseCode.SUCCESS, null).setBody(bytes)
                .setCode(RequestCode.SEND_BATCH_MESSAGE), UnpooledByteBufAllocator.DEFAULT);
        try {
            RemotingCommand kept = codec.decode(frame.skipBytes(FrameDescriptor.LENGTH_FIELD_BYTES));
            assertEquals(2, frame.refCnt(), "the body holds the frame");
            ByteBuffer view = kept.bodyView();
            assertEquals(bytes.length, view.remaining());
            byte[] read = new byte[bytes.length];
            view.duplicate().get(read);
            assertArrayEquals(bytes, read);
            assertArrayEquals(bytes, kept.body(), "body() copies a held body");
            assertTrue(kept.releaseBody());
            assertEquals(1, frame.refCnt(), "released");
            assertNull(kept.bodyView(), "no body after the release");

            RemotingCommand copied = codec.decode(other.skipBytes(FrameDescriptor.LENGTH_FIELD_BYTES));
            assertEquals(1, other.refCnt(), "another code's body is copied out");
            assertArrayEquals(bytes, copied.body());
            assertFalse(copied.releaseBody());
            RemotingCommand answer = codec.decode(response.skipBytes(FrameDescriptor.LENGTH_FIELD_BYTES));
            assertEquals(1, response.refCnt(), "a response's body is copied out");
            assertArrayEquals(bytes, answer.body());
        } finally {
            frame.release();
            other.release();
            response.release();
        }
    }

    @Test
    void heapPartsAtAnOffsetAndReadOnlyPartsAreCopiedExactly() throws FrameException {
        byte[] backing = new byte[1000];
        for (int i = 0; i < backing.length; i++) {
            backing[i] = (byte) i;
        }
        ByteBuffer positioned = ByteBuffer.wrap(backing, 10, 300); // position 10, limit 310
        ByteBuffer sliced = ByteBuffer.wrap(backing, 400, 200).slice(); // array offset 400
        ByteBuffer readOnly = ByteBuffer.wrap(backing, 700, 250).asReadOnlyBuffer(); // no accessible array
        FrameCodec codec = new FrameCodec(1 << 20);
        RemotingCommand command = RemotingCommand.request(RequestCode.SEND_BATCH_MESSAGE)
                .setBody(new ByteBuffer[] {positioned, sliced, readOnly});
        ByteBuf encoded = codec.encode(command, ByteBufAllocator.DEFAULT);
        try {
            byte[] body = codec.decode(encoded.skipBytes(FrameDescriptor.LENGTH_FIELD_BYTES)).body();
            byte[] expected = new byte[750];
            System.arraycopy(backing, 10, expected, 0, 300);
            System.arraycopy(backing, 400, expected, 300, 200);
            System.arraycopy(backing, 700, expected, 500, 250);
            assertArrayEquals(expected, body);
            assertEquals(10, positioned.position(), "the parts are not consumed");
            assertEquals(700, readOnly.position());
        } finally {
            encoded.release();
        }
    }

    @Test
    void binaryHeaderMatchesTheSpecExample() throws FrameException {
        RemotingCommand command = RemotingCommand.request(RequestCode.GET_ROUTEINFO_BY_TOPIC)
                .setVersion(442).setOpaque(4).putExtField("topic", "T1").setSerializeType(SerializeType.ROCKETMQ);
        String expected = "00000026" + "01000022" + "0069" + "00" + "01BA" + "00000004" + "00000000" + "00000000"
                + "0000000D" + "0005" + "746F706963" + "00000002" + "5431";
        assertEquals(expected.toLowerCase(), HexFormat.of().formatHex(frameBytes(command)));
    }

    @Test
    void jsonHeaderMatchesTheObservedApacheText() throws FrameException {
        RemotingCommand command = RemotingCommand.request(RequestCode.GET_ROUTEINFO_BY_TOPIC)
                .setVersion(479).setOpaque(4).putExtField("topic", "RocketMQ-Benchmark-bcq");
        byte[] frame = frameBytes(command);
        String header = new String(frame, 8, frame.length - 8, StandardCharsets.UTF_8);
        assertEquals("{\"code\":105,\"extFields\":{\"topic\":\"RocketMQ-Benchmark-bcq\"},\"flag\":0,"
                + "\"language\":\"JAVA\",\"opaque\":4,\"serializeTypeCurrentRPC\":\"JSON\",\"version\":479}", header);
        assertEquals(0, frame[4], "serialize type JSON in the high byte of the header word");
    }

    @Test
    void jsonReaderAcceptsAnyOrderUnknownKeysDefaultsAndOrdinalLanguage() throws FrameException {
        RemotingCommand decoded = decodeJsonHeader("{\"zzz\":[1,{\"a\":null}],\"opaque\":7,\"language\":9,"
                + "\"extFields\":{\"n\":12,\"b\":true,\"s\":\"\\u0001x\",\"nul\":null},\"code\":34}");
        assertEquals(34, decoded.code());
        assertEquals(7, decoded.opaque());
        assertEquals(0, decoded.flag());
        assertEquals(0, decoded.version());
        assertEquals(LanguageCode.GO, decoded.language());
        assertNull(decoded.remark());
        assertEquals(Map.of("n", "12", "b", "true", "s", "\u0001x"), decoded.extFields());

        RemotingCommand empty = decodeJsonHeader("{}");
        assertEquals(LanguageCode.JAVA, empty.language());
        assertTrue(!empty.hasExtFields());
        assertTrue(decodeJsonHeader("{\"extFields\":{}}").hasExtFields(), "an empty extFields object is kept");
    }

    @Test
    void jsonKeysMixingEscapesAndAstralCharactersRoundTrip() throws FrameException {
        RemotingCommand command = RemotingCommand.request(1).putExtField("\u2028\uD83D\uDE00", "\n\uD83D\uDE00")
                .putExtField("\uD83D\uDE00\u0001", "v").setRemark("\u0085\uD834\uDD1E");
        assertSameCommand(command, decodeFrame(frameBytes(command)));
    }

    @Test
    void unparseableJsonHeadersAreFrameErrors() {
        for (String bad : new String[] {"[1,2]", "{\"code\":", "{\"code\":\"abc\"}", "not json", "{\"code\":1}x",
                "{\"extFields\":[1]}"}) {
            FrameException e = assertThrows(FrameException.class, () -> decodeJsonHeader(bad), bad);
            assertTrue(e.getMessage().contains("JSON header"), e.getMessage());
        }
    }

    @Test
    void inconsistentLengthsAndUnknownTypesAreFrameErrors() throws FrameException {
        FrameCodec codec = new FrameCodec(1024);
        assertThrows(FrameException.class, () -> codec.checkTotalLength(-1));
        assertThrows(FrameException.class, () -> codec.checkTotalLength(3));
        FrameException tooBig = assertThrows(FrameException.class, () -> codec.checkTotalLength(1021));
        assertTrue(tooBig.getMessage().contains("1025"), tooBig.getMessage());
        codec.checkTotalLength(1020);

        assertFrameError(codec, frame(0x0000_0010, new byte[4]), "header length 16 exceeds");
        assertFrameError(codec, frame(0x0200_0000, new byte[0]), "unknown serialize type 2");
        assertFrameError(codec, frame(0x0100_0004, new byte[4]), "binary header length 4");
        assertFrameError(codec, frame(0x0000_0000, new byte[0]), "JSON header length is 0");
    }

    @Test
    void binaryEntriesWithBadLengthsAreFrameErrors() throws FrameException {
        RemotingCommand command = RemotingCommand.request(1).putExtField("k", "v")
                .setSerializeType(SerializeType.ROCKETMQ);
        byte[] good = frameBytes(command);
        int extLengthAt = 8 + BinaryHeaderDescriptor.FIXED_BYTES;

        byte[] badExtLength = good.clone();
        ByteBuffer.wrap(badExtLength).putInt(extLengthAt, 99);
        assertFrameError(new FrameCodec(1024), rest(badExtLength), "ext length 99");

        byte[] badValueLength = good.clone();
        ByteBuffer.wrap(badValueLength).putInt(extLengthAt + 4 + 2 + 1, -5);
        assertFrameError(new FrameCodec(1024), rest(badValueLength), "value length -5");

        byte[] badRemark = good.clone();
        ByteBuffer.wrap(badRemark).putInt(8 + BinaryHeaderDescriptor.REMARK_LENGTH_OFFSET, 1000);
        assertFrameError(new FrameCodec(1024), rest(badRemark), "remark length 1000");
    }

    @Test
    void binaryDropsEmptyValuesAndKeepsTheLastDuplicateKey() throws FrameException {
        ByteBuf header = Unpooled.buffer();
        header.writeShort(11).writeByte(0).writeShort(479).writeInt(9).writeInt(0).writeInt(0);
        byte[] entries = {0, 1, 'a', 0, 0, 0, 1, '1', 0, 1, 'b', 0, 0, 0, 0, 0, 1, 'a', 0, 0, 0, 1, '2'};
        header.writeInt(entries.length).writeBytes(entries);
        ByteBuf frame = Unpooled.buffer().writeInt(FrameDescriptor.headerWord(SerializeType.ROCKETMQ,
                header.readableBytes())).writeBytes(header);
        RemotingCommand decoded = Commands.CODEC.decode(frame);
        assertEquals(Map.of("a", "2"), decoded.extFields());
        assertNull(decoded.remark());
    }

    @Test
    void oversizedFramesAreRefusedWhenEncoding() {
        FrameCodec codec = new FrameCodec(1024);
        RemotingCommand command = RemotingCommand.request(1).setBody(new byte[2000]);
        assertThrows(FrameException.class, () -> codec.encode(command, ByteBufAllocator.DEFAULT));
        RemotingCommand binary = RemotingCommand.request(70000).setSerializeType(SerializeType.ROCKETMQ);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> codec.encode(binary, ByteBufAllocator.DEFAULT));
        assertTrue(e.getMessage().contains("70000"), e.getMessage());
    }

    @Test
    void bodyBuffersAreSentWithoutLosingBytes() throws FrameException {
        byte[] a = new byte[1500];
        byte[] b = new byte[700];
        a[0] = 1;
        a[1499] = 2;
        b[699] = 3;
        ByteBuffer direct = ByteBuffer.allocateDirect(700).put(b).flip();
        RemotingCommand command = RemotingCommand.request(1).setBody(ByteBuffer.wrap(a), direct);
        RemotingCommand decoded = decodeFrame(frameBytes(command));
        byte[] expected = new byte[2200];
        System.arraycopy(a, 0, expected, 0, 1500);
        System.arraycopy(b, 0, expected, 1500, 700);
        assertArrayEquals(expected, decoded.body());
        assertEquals(700, direct.remaining(), "encoding does not consume the caller's buffer");
    }

    @Test
    void anOwnedBodyGoesIntoTheFrameUncopiedAndIsFreedWithIt() throws FrameException {
        UnpooledByteBufAllocator allocator = new UnpooledByteBufAllocator(true);
        for (int bodyBytes : new int[] {10, 5000}) { // below and above the copy threshold
            ByteBuf owned = allocator.directBuffer(bodyBytes);
            for (int i = 0; i < bodyBytes; i++) {
                owned.writeByte(i * 7);
            }
            byte[] expected = ByteBufUtil.getBytes(owned);
            RemotingCommand command = RemotingCommand.request(1).putExtField("k", "v").setBody(owned);
            assertEquals(bodyBytes, command.bodyBytes());
            assertArrayEquals(expected, command.body(), "readable before it is sent");
            ByteBuf frame = Commands.CODEC.encode(command, allocator);
            assertEquals(0, command.bodyBytes(), "the frame took the body");
            assertEquals(bodyBytes >= 1024, frame instanceof CompositeByteBuf && owned.refCnt() == 1,
                    "a large body is attached as it is, a small one copied and released at once");
            assertFalse(command.releaseBody(), "nothing left to release");
            byte[] bytes = ByteBufUtil.getBytes(frame);
            frame.release();
            assertEquals(0, owned.refCnt(), "released with the frame");
            assertEquals(0, allocator.metric().usedDirectMemory());
            assertArrayEquals(expected, decodeFrame(bytes).body(), bodyBytes + " body bytes");
        }
    }

    @Test
    void anOwnedBodyIsFreedWhenItsFrameCannotBeEncodedOrWhenTheSendIsGivenUp() {
        ByteBuf tooBig = Unpooled.directBuffer(2000).writeZero(2000);
        RemotingCommand command = RemotingCommand.request(1).setBody(tooBig);
        assertThrows(FrameException.class, () -> new FrameCodec(1024).encode(command, ByteBufAllocator.DEFAULT));
        assertEquals(0, tooBig.refCnt(), "released when encoding failed");

        ByteBuf unsent = Unpooled.directBuffer(8).writeLong(1);
        RemotingCommand givenUp = RemotingCommand.request(1).setBody(unsent);
        assertTrue(givenUp.releaseBody());
        assertFalse(givenUp.releaseBody(), "released once");
        assertEquals(0, unsent.refCnt());

        ByteBuf replaced = Unpooled.directBuffer(8).writeLong(2);
        RemotingCommand.request(1).setBody(replaced).setBody(new byte[] {1});
        assertEquals(0, replaced.refCnt(), "a body set over it releases it");
    }

    private static RemotingCommand decodeJsonHeader(String json) throws FrameException {
        byte[] header = json.getBytes(StandardCharsets.UTF_8);
        return Commands.CODEC.decode(frame(FrameDescriptor.headerWord(SerializeType.JSON, header.length), header));
    }

    private static ByteBuf frame(int headerWord, byte[] rest) {
        return Unpooled.buffer().writeInt(headerWord).writeBytes(rest);
    }

    private static ByteBuf rest(byte[] frameWithLength) {
        return Unpooled.wrappedBuffer(frameWithLength, 4, frameWithLength.length - 4);
    }

    private static void assertFrameError(FrameCodec codec, ByteBuf frame, String expectedText) {
        FrameException e = assertThrows(FrameException.class, () -> codec.decode(frame),
                () -> ByteBufUtil.hexDump(frame));
        assertTrue(e.getMessage().contains(expectedText), e.getMessage());
    }
}
