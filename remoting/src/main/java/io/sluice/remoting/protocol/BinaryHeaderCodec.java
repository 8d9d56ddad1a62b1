package io.sluice.remoting.protocol;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Encodes and decodes the ROCKETMQ binary header ({@link BinaryHeaderDescriptor}). Stateless and thread-safe.
 */
public final class BinaryHeaderCodec {
    private BinaryHeaderCodec() {
    }

    /**
     * Writes the header of {@code command} at the writer index of {@code out}.
     *
     * @return the number of header bytes written
     * @throws IllegalArgumentException when the code or version does not fit int16, or a key is too long
     */
    public static int encode(RemotingCommand command, ByteBuf out) {
        int start = out.writerIndex();
        out.writeShort(checkInt16("code", command.code()));
        out.writeByte(command.language().code());
        out.writeShort(checkInt16("version", command.version()));
        out.writeInt(command.opaque());
        out.writeInt(command.flag());
        writeString(out, command.remark());
        int extLengthAt = out.writerIndex();
        out.writeInt(0);
        if (command.hasExtFields()) {
            for (Map.Entry<String, String> field : command.extFields().entrySet()) {
                writeKey(out, field.getKey());
                writeString(out, field.getValue());
            }
        }
        out.setInt(extLengthAt, out.writerIndex() - extLengthAt - BinaryHeaderDescriptor.EXT_LENGTH_BYTES);
        return out.writerIndex() - start;
    }

    /**
     * Reads a binary header of exactly {@code headerLength} bytes from the reader index of {@code in} into
     * {@code into}, advancing the reader index past the header.
     *
     * @throws FrameException naming the bad length when the header is truncated or inconsistent
     */
    public static void decode(ByteBuf in, int headerLength, RemotingCommand into) throws FrameException {
        if (headerLength < BinaryHeaderDescriptor.MIN_HEADER_BYTES || headerLength > in.readableBytes()) {
            throw new FrameException("binary header length " + headerLength + " outside "
                    + BinaryHeaderDescriptor.MIN_HEADER_BYTES + ".." + in.readableBytes());
        }
        int end = in.readerIndex() + headerLength;
        into.setCode(in.readShort());
        into.setLanguage(LanguageCode.fromCode(in.readUnsignedByte()));
        into.setVersion(in.readShort());
        into.setOpaque(in.readInt());
        into.setFlag(in.readInt());
        int remarkLength = in.readInt();
        int afterRemark = end - in.readerIndex() - BinaryHeaderDescriptor.EXT_LENGTH_BYTES;
        if (remarkLength < 0 || remarkLength > afterRemark) {
            throw new FrameException("binary header remark length " + remarkLength + " outside 0.." + afterRemark);
        }
        into.setRemark(remarkLength == 0 ? null : readUtf8(in, remarkLength));
        int extLength = in.readInt();
        if (extLength != end - in.readerIndex()) {
            throw new FrameException("binary header ext length " + extLength + " does not match the "
                    + (end - in.readerIndex()) + " header bytes left");
        }
        if (extLength > 0) {
            into.setExtFields(readEntries(in, end));
        }
    }

    private static Map<String, String> readEntries(ByteBuf in, int end) throws FrameException {
        LinkedHashMap<String, String> fields = new LinkedHashMap<>();
        while (in.readerIndex() < end) {
            int keyLength = readLength(in, end, BinaryHeaderDescriptor.KEY_LENGTH_BYTES, "key");
            String key = keyLength == 0 ? null : readUtf8(in, keyLength);
            int valueLength = readLength(in, end, BinaryHeaderDescriptor.VALUE_LENGTH_BYTES, "value");
            String value = valueLength == 0 ? null : readUtf8(in, valueLength);
            if (key != null && value != null) {
                fields.put(key, value);
            }
        }
        return fields;
    }

    private static int readLength(ByteBuf in, int end, int fieldBytes, String what) throws FrameException {
        int left = end - in.readerIndex() - fieldBytes;
        if (left < 0) {
            throw new FrameException("binary header entry " + what + " length truncated at header byte "
                    + in.readerIndex());
        }
        int length = fieldBytes == 2 ? in.readShort() : in.readInt();
        if (length < 0 || length > left) {
            throw new FrameException("binary header entry " + what + " length " + length + " outside 0.." + left);
        }
        return length;
    }

    private static String readUtf8(ByteBuf in, int length) {
        String value = in.toString(in.readerIndex(), length, StandardCharsets.UTF_8);
        in.skipBytes(length);
        return value;
    }

    private static void writeString(ByteBuf out, String value) {
        int lengthAt = out.writerIndex();
        out.writeInt(0);
        if (value != null) {
            out.setInt(lengthAt, ByteBufUtil.writeUtf8(out, value));
        }
    }

    private static void writeKey(ByteBuf out, String key) {
        int lengthAt = out.writerIndex();
        out.writeShort(0);
        int length = ByteBufUtil.writeUtf8(out, key);
        if (length > BinaryHeaderDescriptor.MAX_KEY_BYTES) {
            throw new IllegalArgumentException("header key of " + length + " bytes exceeds "
                    + BinaryHeaderDescriptor.MAX_KEY_BYTES + ": " + key.substring(0, 32) + "...");
        }
        out.setShort(lengthAt, length);
    }

    private static int checkInt16(String what, int value) {
        if (value < Short.MIN_VALUE || value > Short.MAX_VALUE) {
            throw new IllegalArgumentException(what + " " + value + " does not fit the binary header's int16");
        }
        return value;
    }
}
