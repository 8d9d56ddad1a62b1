package io.sluice.remoting.protocol;

import io.netty.buffer.ByteBuf;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * One request or response of the RocketMQ remoting protocol (docs/wire-protocol.md#commands): the header fields, the
 * custom header ({@code extFields}, string to string) and an optional body.
 *
 * <p>Not thread-safe. A command is owned by the thread that builds or decodes it and is handed over, whole, to
 * the transport or to a handler; nobody touches it after handing it over.
 *
 * <p>A body set with {@link #setBody(ByteBuf)} is held by reference count and travels with the command: the
 * transport releases it once the frame carrying it is written, or when it gives up sending the command. That
 * hand-over is the one part safe across threads.
 *
 * <p>The transport owns {@link #opaque()} on outbound requests (it assigns a fresh one when sending) and stamps
 * opaque, serialize type and the response flag on responses from their request, so handlers only set the code,
 * remark, header fields and body.
 *
 * <p>{@code extFields} keeps insertion order, so encoding is deterministic. The typed accessors
 * ({@link #requireString}, {@link #optionalLong}, ...) read it with Apache's conventions
 * (docs/wire-protocol.md#custom-header-fields): decimal numbers, booleans true when the value equals "true" ignoring
 * case.
 */
public final class RemotingCommand {
    /** Bit 0 of {@code flag}: this command is a response. */
    public static final int FLAG_RESPONSE = 1;
    /** Bit 1 of {@code flag}: a oneway request, never answered. */
    public static final int FLAG_ONEWAY = 2;

    private static final ByteBuffer[] NO_BODY = new ByteBuffer[0];
    private static final FileSlice[] NO_FILES = new FileSlice[0];
    private static final VarHandle OWNED_BODY;

    static {
        try {
            OWNED_BODY = MethodHandles.lookup().findVarHandle(RemotingCommand.class, "ownedBody", ByteBuf.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private int code;
    private LanguageCode language = LanguageCode.JAVA;
    private int version = ProtocolVersion.CURRENT;
    private int opaque;
    private int flag;
    private String remark;
    private LinkedHashMap<String, String> extFields;
    private SerializeType serializeType = SerializeType.JSON;
    private ByteBuffer[] body = NO_BODY;
    /** The same bytes as {@link #body}, in files, or empty ({@link #setBody(ByteBuffer[], FileSlice[])}). */
    private FileSlice[] bodyFiles = NO_FILES;
    /** A body held by reference count, until the codec or a release takes it; read and cleared through OWNED_BODY. */
    @SuppressWarnings("unused")
    private volatile ByteBuf ownedBody;

    /** Creates a command with code 0, language JAVA, {@link ProtocolVersion#CURRENT}, JSON, no header, no body. */
    public RemotingCommand() {
    }

    /** A request with the given code; the transport assigns its opaque when it is sent. */
    public static RemotingCommand request(int code) {
        RemotingCommand command = new RemotingCommand();
        command.code = code;
        return command;
    }

    /** A response with the given code and remark (may be null); the server copies opaque etc. from the request. */
    public static RemotingCommand response(int code, String remark) {
        RemotingCommand command = new RemotingCommand();
        command.code = code;
        command.remark = remark;
        command.flag = FLAG_RESPONSE;
        return command;
    }

    /** A SUCCESS response that already carries the request's opaque and serialize type. */
    public static RemotingCommand responseTo(RemotingCommand request) {
        return responseTo(request, ResponseCode.SUCCESS, null);
    }

    /** A response with the given code and remark that carries the request's opaque and serialize type. */
    public static RemotingCommand responseTo(RemotingCommand request, int code, String remark) {
        RemotingCommand command = response(code, remark);
        command.opaque = request.opaque;
        command.serializeType = request.serializeType;
        return command;
    }

    /** The request code of a request, the response code of a response. */
    public int code() {
        return code;
    }

    /** Sets the request or response code; returns this command. */
    public RemotingCommand setCode(int code) {
        this.code = code;
        return this;
    }

    /** The sender's language; Sluice sends JAVA. */
    public LanguageCode language() {
        return language;
    }

    /** Sets the sender's language; returns this command. */
    public RemotingCommand setLanguage(LanguageCode language) {
        this.language = Objects.requireNonNull(language, "language");
        return this;
    }

    /** The sender's version ordinal ({@link ProtocolVersion}). */
    public int version() {
        return version;
    }

    /** Sets the version ordinal; returns this command. */
    public RemotingCommand setVersion(int version) {
        this.version = version;
        return this;
    }

    /** The request id; a response carries the opaque of its request. */
    public int opaque() {
        return opaque;
    }

    /** Sets the request id; the transport does this for outbound requests and responses. */
    public RemotingCommand setOpaque(int opaque) {
        this.opaque = opaque;
        return this;
    }

    /** The raw flag word: {@link #FLAG_RESPONSE} and {@link #FLAG_ONEWAY} bits, others kept as received. */
    public int flag() {
        return flag;
    }

    /** Sets the raw flag word; returns this command. */
    public RemotingCommand setFlag(int flag) {
        this.flag = flag;
        return this;
    }

    /** True when the response bit is set. */
    public boolean isResponse() {
        return (flag & FLAG_RESPONSE) != 0;
    }

    /** Sets the response bit; returns this command. */
    public RemotingCommand markResponse() {
        flag |= FLAG_RESPONSE;
        return this;
    }

    /** True when the oneway bit is set: the request must not be answered. */
    public boolean isOneway() {
        return (flag & FLAG_ONEWAY) != 0;
    }

    /** Sets the oneway bit; returns this command. */
    public RemotingCommand markOneway() {
        flag |= FLAG_ONEWAY;
        return this;
    }

    /** Human-readable text, used for error descriptions; null when absent. */
    public String remark() {
        return remark;
    }

    /** Sets the remark (null for none); returns this command. */
    public RemotingCommand setRemark(String remark) {
        this.remark = remark;
        return this;
    }

    /** How the header is (or will be) serialized. A response uses its request's type. */
    public SerializeType serializeType() {
        return serializeType;
    }

    /** Sets the header serialization used when this command is encoded; returns this command. */
    public RemotingCommand setSerializeType(SerializeType serializeType) {
        this.serializeType = Objects.requireNonNull(serializeType, "serializeType");
        return this;
    }

    // ---------------------------------------------------------------------------------------------- extFields

    /** True when the header carries an {@code extFields} object, even an empty one. */
    public boolean hasExtFields() {
        return extFields != null;
    }

    /** A read-only view of the custom header in insertion order; empty when there is none. */
    public Map<String, String> extFields() {
        return extFields == null ? Map.of() : Collections.unmodifiableMap(extFields);
    }

    /** For the signature in this package: the custom header itself (null when none); callers must not change it. */
    Map<String, String> extFieldsOrNull() {
        return extFields;
    }

    /** Replaces the custom header with a copy of {@code fields}; null removes it. Null keys/values rejected. */
    public RemotingCommand setExtFields(Map<String, String> fields) {
        if (fields == null) {
            extFields = null;
            return this;
        }
        LinkedHashMap<String, String> copy = new LinkedHashMap<>(Math.max(4, fields.size() * 2));
        fields.forEach((key, value) -> copy.put(Objects.requireNonNull(key, "extFields key"),
                Objects.requireNonNull(value, () -> "extFields value of " + key)));
        extFields = copy;
        return this;
    }

    /** Adds or replaces one header field. */
    public RemotingCommand putExtField(String name, String value) {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(value, () -> "value of " + name);
        if (extFields == null) {
            extFields = new LinkedHashMap<>();
        }
        extFields.put(name, value);
        return this;
    }

    /** Adds or replaces one header field, written in decimal. */
    public RemotingCommand putExtField(String name, long value) {
        return putExtField(name, Long.toString(value));
    }

    /** Adds or replaces one header field, written as "true" or "false". */
    public RemotingCommand putExtField(String name, boolean value) {
        return putExtField(name, Boolean.toString(value));
    }

    /** The raw value of a header field, or null when absent. */
    public String extField(String name) {
        return extFields == null ? null : extFields.get(name);
    }

    /** A required string field. @throws MalformedHeaderException naming the field when it is absent */
    public String requireString(String name) {
        String value = extField(name);
        if (value == null) {
            throw new MalformedHeaderException(name, "missing header field '" + name + "'");
        }
        return value;
    }

    /** A required int field. @throws MalformedHeaderException naming the field when absent or not an int */
    public int requireInt(String name) {
        return parseInt(name, requireString(name));
    }

    /** A required long field. @throws MalformedHeaderException naming the field when absent or not a long */
    public long requireLong(String name) {
        return parseLong(name, requireString(name));
    }

    /** A required boolean field ("true" ignoring case is true). @throws MalformedHeaderException when absent */
    public boolean requireBoolean(String name) {
        return Boolean.parseBoolean(requireString(name));
    }

    /** An optional string field, {@code defaultValue} when absent. */
    public String optionalString(String name, String defaultValue) {
        String value = extField(name);
        return value == null ? defaultValue : value;
    }

    /** An optional int field. @throws MalformedHeaderException naming the field when present but not an int */
    public int optionalInt(String name, int defaultValue) {
        String value = extField(name);
        return value == null ? defaultValue : parseInt(name, value);
    }

    /** An optional long field. @throws MalformedHeaderException naming the field when present but not a long */
    public long optionalLong(String name, long defaultValue) {
        String value = extField(name);
        return value == null ? defaultValue : parseLong(name, value);
    }

    /** An optional boolean field, {@code defaultValue} when absent. */
    public boolean optionalBoolean(String name, boolean defaultValue) {
        String value = extField(name);
        return value == null ? defaultValue : Boolean.parseBoolean(value);
    }

    private static int parseInt(String name, String value) {
        try {
            return Integer.parseInt(value);
        } catch (NumberFormatException e) {
            throw new MalformedHeaderException(name, "header field '" + name + "' is not an int: '" + value + "'");
        }
    }

    private static long parseLong(String name, String value) {
        try {
            return Long.parseLong(value);
        } catch (NumberFormatException e) {
            throw new MalformedHeaderException(name, "header field '" + name + "' is not a long: '" + value + "'");
        }
    }

    // --------------------------------------------------------------------------------------------------- body

    /**
     * The body bytes, or null when there is none. Returns the backing array when the body was set from one
     * whole array (no copy); otherwise copies the body buffers into a new array.
     */
    public byte[] body() {
        ByteBuf owned = ownedBody;
        if (owned != null) {
            byte[] copy = new byte[owned.readableBytes()];
            owned.getBytes(owned.readerIndex(), copy);
            return copy;
        }
        if (body.length == 0) {
            return null;
        }
        if (body.length == 1) {
            ByteBuffer only = body[0];
            if (only.hasArray() && only.arrayOffset() == 0 && only.position() == 0
                    && only.remaining() == only.array().length) {
                return only.array();
            }
        }
        byte[] copy = new byte[bodyBytes()];
        int at = 0;
        for (ByteBuffer part : body) {
            int length = part.remaining();
            part.duplicate().get(copy, at, length);
            at += length;
        }
        return copy;
    }

    /**
     * The body as one buffer from its position to its limit, or null when there is none: a view, no copy, when the
     * body is one part (an array, a buffer, or a held body whose bytes lie in one piece of memory), else a copy.
     * A view of a held body ({@link #setBody(ByteBuf)}) is valid only until that body is released; the view's
     * bytes must not be changed.
     */
    public ByteBuffer bodyView() {
        ByteBuf owned = ownedBody;
        if (owned != null) {
            return owned.nioBuffer();
        }
        if (body.length == 0) {
            return null;
        }
        return body.length == 1 ? body[0].duplicate() : ByteBuffer.wrap(body());
    }

    /** Sets the body; null or empty means no body (the wire cannot tell them apart). */
    public RemotingCommand setBody(byte[] bytes) {
        releaseBody();
        bodyFiles = NO_FILES;
        body = bytes == null || bytes.length == 0 ? NO_BODY : new ByteBuffer[] {ByteBuffer.wrap(bytes)};
        return this;
    }

    /**
     * Sets the body to the concatenation of the remaining bytes of {@code parts}, sent without copying. The
     * buffers must not change until the frame is written.
     */
    public RemotingCommand setBody(ByteBuffer... parts) {
        releaseBody();
        bodyFiles = NO_FILES;
        int count = 0;
        for (ByteBuffer part : parts) {
            count += part.hasRemaining() ? 1 : 0;
        }
        ByteBuffer[] kept = new ByteBuffer[count];
        int at = 0;
        for (ByteBuffer part : parts) {
            if (part.hasRemaining()) {
                kept[at++] = part.slice();
            }
        }
        body = kept;
        return this;
    }

    /**
     * Sets the body to the concatenation of {@code parts} ({@link #setBody(ByteBuffer...)}), whose bytes also lie,
     * in the same order, in {@code files}: the codec then copies the body from the files, by positional reads, into
     * the frame's own buffer, which goes out in one write (docs/storage.md#reading). For memory-mapped parts that
     * spares the first touch of each of their pages, which costs more than the copy. The parts are the fallback when
     * a file cannot be read.
     *
     * @throws IllegalArgumentException when the files hold a different number of bytes than the parts
     */
    public RemotingCommand setBody(ByteBuffer[] parts, FileSlice[] files) {
        setBody(parts);
        long fileBytes = 0;
        for (FileSlice file : files) {
            fileBytes += file.length();
        }
        if (fileBytes != bodyBytes()) {
            throw new IllegalArgumentException("the files hold " + fileBytes + " bytes, the body " + bodyBytes());
        }
        bodyFiles = fileBytes == 0 ? NO_FILES : files.clone();
        return this;
    }

    /**
     * Sets the body to the readable bytes of {@code owned}, sent without copying, and takes over the caller's
     * reference to it: the transport releases it once the frame carrying it is written or the send has failed
     * ({@link #releaseBody()}); the caller must neither release it nor change its bytes. The first frame encoded
     * from this command takes the body, so a command with such a body is encoded once; {@link #body()} and
     * {@link #bodyBuffers()} read it only until then, so they are for its owner, before handing it over.
     */
    public RemotingCommand setBody(ByteBuf owned) {
        Objects.requireNonNull(owned, "owned body");
        releaseBody();
        body = NO_BODY;
        bodyFiles = NO_FILES;
        if (owned.isReadable()) {
            OWNED_BODY.setVolatile(this, owned);
        } else {
            owned.release();
        }
        return this;
    }

    /**
     * Releases a body set with {@link #setBody(ByteBuf)} that no frame has taken yet; for whoever gives up sending
     * this command. Idempotent, and safe against a concurrent encode: exactly one of the two gets the body.
     *
     * @return whether a body was released
     */
    public boolean releaseBody() {
        ByteBuf owned = takeOwnedBody();
        if (owned == null) {
            return false;
        }
        owned.release();
        return true;
    }

    /** For the codec: the body set with {@link #setBody(ByteBuf)}, now the caller's to release, or null. */
    ByteBuf takeOwnedBody() {
        return ownedBody == null ? null : (ByteBuf) OWNED_BODY.getAndSet(this, (ByteBuf) null);
    }

    /** Body length in bytes; 0 when there is no body. */
    public int bodyBytes() {
        ByteBuf owned = ownedBody;
        if (owned != null) {
            return owned.readableBytes();
        }
        long total = 0;
        for (ByteBuffer part : body) {
            total += part.remaining();
        }
        if (total > Integer.MAX_VALUE) {
            throw new IllegalStateException("body of " + total + " bytes exceeds the largest frame");
        }
        return (int) total;
    }

    /** The body as read-only views (empty array when no body); the views share content with the body. */
    public ByteBuffer[] bodyBuffers() {
        ByteBuf owned = ownedBody;
        if (owned != null) {
            return new ByteBuffer[] {owned.nioBuffer().asReadOnlyBuffer()};
        }
        ByteBuffer[] views = new ByteBuffer[body.length];
        for (int i = 0; i < body.length; i++) {
            views[i] = body[i].asReadOnlyBuffer();
        }
        return views;
    }

    /** For the signature in this package: the body set with {@link #setBody(ByteBuf)}, still held here, or null. */
    ByteBuf ownedBodyOrNull() {
        return ownedBody;
    }

    /** The files holding the body's bytes, or an empty array; for the codec in this package only. */
    FileSlice[] bodyFiles() {
        return bodyFiles;
    }

    /** The internal body buffers, for the codec in this package only; callers must not change them. */
    ByteBuffer[] bodyParts() {
        return body;
    }

    @Override
    public String toString() {
        return "RemotingCommand{code=" + code + ", language=" + language + ", version=" + version
                + ", opaque=" + opaque + ", flag=" + flag + ", remark=" + remark + ", extFields=" + extFields
                + ", serializeType=" + serializeType + ", bodyBytes=" + bodyBytes() + '}';
    }
}
