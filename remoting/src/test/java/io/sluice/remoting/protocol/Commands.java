package io.sluice.remoting.protocol;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;

/**
 * Test helpers: frame bytes of our codec, generators of commands and field-by-field comparison. Public for the
 * transport tests, which feed such frames to the decoder.
 */
public final class Commands {
    public static final FrameCodec CODEC = new FrameCodec(FrameDescriptor.DEFAULT_MAX_FRAME_BYTES);

    private Commands() {
    }

    /** The complete frame of {@code command}, length field included. */
    public static byte[] frameBytes(RemotingCommand command) throws FrameException {
        ByteBuf frame = CODEC.encode(command, ByteBufAllocator.DEFAULT);
        try {
            return ByteBufUtil.getBytes(frame);
        } finally {
            frame.release();
        }
    }

    /** Decodes a complete frame (length field included) with our codec. */
    static RemotingCommand decodeFrame(byte[] frame) throws FrameException {
        ByteBuf buf = Unpooled.wrappedBuffer(frame);
        int totalLength = buf.readInt();
        assertEquals(frame.length - 4, totalLength, "length field");
        return CODEC.decode(buf);
    }

    public static void assertSameCommand(RemotingCommand expected, RemotingCommand actual) {
        assertEquals(expected.code(), actual.code(), "code");
        assertEquals(expected.language(), actual.language(), "language");
        assertEquals(expected.version(), actual.version(), "version");
        assertEquals(expected.opaque(), actual.opaque(), "opaque");
        assertEquals(expected.flag(), actual.flag(), "flag");
        assertEquals(expected.remark(), actual.remark(), "remark");
        assertEquals(expected.extFields(), actual.extFields(), "extFields");
        assertEquals(expected.serializeType(), actual.serializeType(), "serializeType");
        assertArrayEquals(expected.body(), actual.body(), "body");
    }

    /** Text without unpaired surrogates (which UTF-8 cannot carry), including non-ASCII and control characters. */
    static Arbitrary<String> text(int minLength, int maxLength) {
        Arbitrary<String> bmp = Arbitraries.strings()
                .withCharRange('\u0000', '\uD7FF').withCharRange('\uE000', '\uFFFD')
                .ofMinLength(minLength).ofMaxLength(maxLength);
        Arbitrary<String> ascii = Arbitraries.strings().ascii().ofMinLength(minLength).ofMaxLength(maxLength);
        Arbitrary<String> astral = Arbitraries.of("\uD83D\uDE00", "\uD834\uDD1E", "ä\uD83D\uDE80ß", "\u2028", "\u2029", "\u0085", "\u007F", "\"", "\\", "/", "\u00A0")
                .list().ofMinSize(Math.max(1, minLength)).ofMaxSize(Math.max(1, maxLength / 2))
                .map(parts -> String.join("", parts));
        return Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(3, bmp), net.jqwik.api.Tuple.of(3, ascii), net.jqwik.api.Tuple.of(1, astral));
    }

    /** Commands that both serialize types can carry: int16 codes/versions, non-empty remark, keys and values. */
    public static Arbitrary<RemotingCommand> commands(SerializeType type) {
        Arbitrary<Integer> codes = type == SerializeType.ROCKETMQ
                ? Arbitraries.integers().between(Short.MIN_VALUE, Short.MAX_VALUE)
                : Arbitraries.integers();
        Arbitrary<Integer> versions = type == SerializeType.ROCKETMQ
                ? Arbitraries.integers().between(Short.MIN_VALUE, Short.MAX_VALUE)
                : Arbitraries.integers();
        Arbitrary<String> remarks = text(1, 60).injectNull(0.3);
        Arbitrary<Map<String, String>> ext = Arbitraries.maps(text(1, 12), text(1, 40))
                .ofMaxSize(8).injectNull(0.2);
        Arbitrary<byte[]> bodies = Arbitraries.bytes().array(byte[].class).ofMaxSize(3000).injectNull(0.3)
                .map(bytes -> bytes == null || bytes.length == 0 ? null : bytes);
        Arbitrary<Integer> flags = Arbitraries.of(0, 1, 2, 3, 5, 0x7fff_0001);
        return Combinators.combine(codes, Arbitraries.of(LanguageCode.values()), versions, Arbitraries.integers(),
                        flags, remarks, ext, bodies)
                .as((code, language, version, opaque, flag, remark, fields, body) -> new RemotingCommand()
                        .setCode(code).setLanguage(language).setVersion(version).setOpaque(opaque).setFlag(flag)
                        .setRemark(remark).setExtFields(fields).setBody(body).setSerializeType(type));
    }
}
