package io.sluice.remoting.protocol;

import com.alibaba.fastjson2.JSON;
import com.alibaba.fastjson2.JSONException;
import com.alibaba.fastjson2.JSONReader;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Encodes and decodes the JSON header, serialize type 0 (docs/wire-protocol.md#json-header), with fastjson2.
 *
 * <p>The writer mirrors Apache's output byte for byte (so captures can be compared): keys {@code code, extFields, flag,
 * language, opaque, remark, serializeTypeCurrentRPC, version} in that (alphabetical) order, null remark and null
 * extFields omitted, language by name, compact. The reader accepts any key order, ignores unknown keys, treats missing
 * keys as defaults (code/flag/opaque/version 0, language JAVA, no remark, no extFields), takes a language as name or
 * ordinal and turns non-string extFields values into their text. Reading uses fastjson2; writing is done by
 * hand because fastjson2 escapes differently from fastjson 1.x. Stateless and thread-safe.
 */
public final class JsonHeaderCodec {
    private static final byte[] HEX_DIGITS = "0123456789ABCDEF".getBytes(StandardCharsets.US_ASCII);

    private JsonHeaderCodec() {
    }

    /**
     * Writes the JSON header of {@code command} at the writer index of {@code out}, byte for byte as Apache's
     * fastjson 1.x writes it: quote and backslash are escaped, BS, TAB, LF, FF and CR get their short escapes,
     * other C0 controls, DEL, C1 controls and the line/paragraph separators U+2028/U+2029 get six-character
     * unicode escapes with upper-case hex digits, everything else is written as UTF-8.
     *
     * @return the number of header bytes written
     */
    public static int encode(RemotingCommand command, ByteBuf out) {
        int start = out.writerIndex();
        out.writeByte('{');
        writeName(out, "code", true);
        writeInt(out, command.code());
        if (command.hasExtFields()) {
            writeName(out, "extFields", false);
            out.writeByte('{');
            boolean first = true;
            for (Map.Entry<String, String> field : command.extFields().entrySet()) {
                if (!first) {
                    out.writeByte(',');
                }
                first = false;
                writeString(out, field.getKey());
                out.writeByte(':');
                writeString(out, field.getValue());
            }
            out.writeByte('}');
        }
        writeName(out, "flag", false);
        writeInt(out, command.flag());
        writeName(out, "language", false);
        writeString(out, command.language().name());
        writeName(out, "opaque", false);
        writeInt(out, command.opaque());
        if (command.remark() != null) {
            writeName(out, "remark", false);
            writeString(out, command.remark());
        }
        writeName(out, "serializeTypeCurrentRPC", false);
        writeString(out, SerializeType.JSON.name());
        writeName(out, "version", false);
        writeInt(out, command.version());
        out.writeByte('}');
        return out.writerIndex() - start;
    }

    private static void writeName(ByteBuf out, String name, boolean first) {
        if (!first) {
            out.writeByte(',');
        }
        out.writeByte('"');
        out.writeCharSequence(name, StandardCharsets.US_ASCII);
        out.writeByte('"');
        out.writeByte(':');
    }

    private static void writeInt(ByteBuf out, int value) {
        out.writeCharSequence(Integer.toString(value), StandardCharsets.US_ASCII);
    }

    /** The characters fastjson 1.x escapes by default: C0 controls, quote, backslash, DEL, C1 controls, LS, PS. */
    private static boolean needsEscape(char c) {
        return c < 0x20 || c == '"' || c == '\\' || (c >= 0x7F && c <= 0x9F) || c == 0x2028 || c == 0x2029;
    }

    private static void writeString(ByteBuf out, String value) {
        out.writeByte('"');
        int runStart = 0;
        int length = value.length();
        for (int i = 0; i < length; i++) {
            char c = value.charAt(i);
            if (!needsEscape(c)) {
                continue;
            }
            if (i > runStart) {
                ByteBufUtil.writeUtf8(out, value, runStart, i);
            }
            runStart = i + 1;
            out.writeByte('\\');
            switch (c) {
                case '"' -> out.writeByte('"');
                case '\\' -> out.writeByte('\\');
                case '\b' -> out.writeByte('b');
                case '\t' -> out.writeByte('t');
                case '\n' -> out.writeByte('n');
                case '\f' -> out.writeByte('f');
                case '\r' -> out.writeByte('r');
                default -> out.writeByte('u').writeByte(HEX_DIGITS[c >> 12]).writeByte(HEX_DIGITS[(c >> 8) & 0xF])
                        .writeByte(HEX_DIGITS[(c >> 4) & 0xF]).writeByte(HEX_DIGITS[c & 0xF]);
            }
        }
        if (length > runStart) {
            ByteBufUtil.writeUtf8(out, value, runStart, length);
        }
        out.writeByte('"');
    }

    /**
     * Parses a JSON header from {@code length} bytes of {@code bytes} at {@code offset} into {@code into}.
     *
     * @throws FrameException when the bytes are not one JSON object with fields of the expected types
     */
    public static void decode(byte[] bytes, int offset, int length, RemotingCommand into) throws FrameException {
        // fastjson2 2.0.53's UTF-8 byte reader rejects field names that mix escapes with 4-byte UTF-8 characters;
        // its String reader does not, so the header is decoded to a String first.
        String text = new String(bytes, offset, length, StandardCharsets.UTF_8);
        try (JSONReader reader = JSONReader.of(text)) {
            if (!reader.nextIfObjectStart()) {
                throw new FrameException("JSON header is not an object: " + preview(bytes, offset, length));
            }
            while (!reader.nextIfObjectEnd()) {
                if (reader.isEnd()) {
                    throw new FrameException("JSON header ends inside the object: " + preview(bytes, offset, length));
                }
                readField(reader, reader.readFieldName(), into);
            }
            if (!reader.isEnd()) {
                throw new FrameException("JSON header has bytes after the object: " + preview(bytes, offset, length));
            }
        } catch (JSONException | IllegalArgumentException | IndexOutOfBoundsException e) {
            throw new FrameException("unparseable JSON header (" + e.getMessage() + "): "
                    + preview(bytes, offset, length), e);
        }
    }

    private static void readField(JSONReader reader, String name, RemotingCommand into) throws FrameException {
        if (name == null) {
            throw new FrameException("JSON header has a field without a name");
        }
        switch (name) {
            case "code" -> into.setCode(reader.readInt32Value());
            case "flag" -> into.setFlag(reader.readInt32Value());
            case "opaque" -> into.setOpaque(reader.readInt32Value());
            case "version" -> into.setVersion(reader.readInt32Value());
            case "language" -> into.setLanguage(readLanguage(reader));
            case "remark" -> into.setRemark(reader.nextIfNull() ? null : readText(reader));
            case "extFields" -> into.setExtFields(readExtFields(reader));
            default -> reader.skipValue();
        }
    }

    private static LanguageCode readLanguage(JSONReader reader) {
        if (reader.nextIfNull()) {
            return LanguageCode.JAVA;
        }
        return reader.isString() ? LanguageCode.fromName(reader.readString())
                : LanguageCode.fromCode(reader.readInt32Value());
    }

    private static Map<String, String> readExtFields(JSONReader reader) throws FrameException {
        if (reader.nextIfNull()) {
            return null;
        }
        if (!reader.nextIfObjectStart()) {
            throw new FrameException("JSON header extFields is not an object");
        }
        LinkedHashMap<String, String> fields = new LinkedHashMap<>();
        while (!reader.nextIfObjectEnd()) {
            if (reader.isEnd()) {
                throw new FrameException("JSON header ends inside extFields");
            }
            String key = reader.readFieldName();
            if (reader.nextIfNull()) {
                continue;
            }
            String value = readText(reader);
            if (key != null) {
                fields.put(key, value);
            }
        }
        return fields;
    }

    /** A string value as is; a number, boolean or nested value as its JSON text (lenient, like Apache). */
    private static String readText(JSONReader reader) {
        if (reader.isString()) {
            return reader.readString();
        }
        Object value = reader.readAny();
        return value instanceof String text ? text : JSON.toJSONString(value);
    }

    private static String preview(byte[] bytes, int offset, int length) {
        int shown = Math.min(length, 200);
        String text = new String(bytes, offset, shown, StandardCharsets.UTF_8);
        return shown < length ? text + "...(" + length + " bytes)" : text;
    }
}
