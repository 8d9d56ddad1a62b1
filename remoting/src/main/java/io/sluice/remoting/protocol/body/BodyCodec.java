package io.sluice.remoting.protocol.body;

import com.alibaba.fastjson2.JSON;
import com.alibaba.fastjson2.JSONException;
import com.alibaba.fastjson2.JSONReader;
import com.alibaba.fastjson2.JSONWriter;
import java.lang.reflect.InvocationTargetException;
import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * Encodes the body records of this package to JSON bytes and decodes them back.
 *
 * <p>Output is standard JSON in UTF-8: every map key is quoted (numeric broker ids as {@code "0"}, queue keys as
 * described in {@link MessageQueueKeys}), map keys and record members are sorted, null members are omitted and
 * enums are written by name. The Apache client (fastjson 1.2.83) parses all of it.
 *
 * <p>Decoding ignores unknown keys, treats absent members as empty or zero, and rejects everything else that is
 * wrong (malformed JSON, a wrong value type, an unknown enum name, a missing required member, trailing garbage) with
 * a {@link BodyFormatException} naming the expected type.
 *
 * <p>Stateless and thread-safe.
 */
public final class BodyCodec {

    private static final JSONWriter.Feature[] WRITE_FEATURES = {
        JSONWriter.Feature.WriteNonStringKeyAsString,
        JSONWriter.Feature.SortMapEntriesByKeys,
    };

    private static final JSONReader.Feature[] READ_FEATURES = {
        JSONReader.Feature.ErrorOnEnumNotMatch,
    };

    private BodyCodec() {
    }

    /**
     * Encodes a body.
     *
     * @param body a record of this package (or any JSON-mappable value such as a list or map)
     * @return the UTF-8 JSON bytes
     */
    public static byte[] encode(Object body) {
        Objects.requireNonNull(body, "body");
        return JSON.toJSONBytes(body, WRITE_FEATURES);
    }

    /**
     * Decodes a body.
     *
     * @param body the UTF-8 JSON bytes
     * @param type the expected body type
     * @param <T> the body type
     * @return the decoded body, never null
     * @throws BodyFormatException if the body is absent, empty, {@code null} or not a valid {@code type}
     */
    public static <T> T decode(byte[] body, Class<T> type) {
        Objects.requireNonNull(type, "type");
        if (body == null || body.length == 0) {
            throw new BodyFormatException(type, "the body is empty", null);
        }
        T value;
        try {
            // fastjson2 2.0.53's UTF-8 byte reader rejects names that mix escapes with 4-byte UTF-8 characters;
            // its String reader does not, so the body is decoded to a String first.
            value = JSON.parseObject(new String(body, StandardCharsets.UTF_8), type, READ_FEATURES);
        } catch (JSONException | IllegalArgumentException | ClassCastException e) {
            throw new BodyFormatException(type, reason(e), e);
        }
        if (value == null) {
            throw new BodyFormatException(type, "the body is JSON null", null);
        }
        return value;
    }

    /** The innermost meaningful message: a record constructor's complaint rather than the reflection wrapper. */
    private static String reason(Throwable error) {
        Throwable cause = error;
        while (cause.getCause() != null && cause.getCause() != cause) {
            cause = cause.getCause();
            if (cause instanceof InvocationTargetException invocation && invocation.getCause() != null) {
                cause = invocation.getCause();
            }
        }
        String message = cause.getMessage();
        return message == null ? cause.getClass().getSimpleName() : message;
    }
}
