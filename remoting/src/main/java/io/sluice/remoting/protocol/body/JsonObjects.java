package io.sluice.remoting.protocol.body;

import com.alibaba.fastjson2.JSON;
import com.alibaba.fastjson2.JSONException;
import com.alibaba.fastjson2.JSONObject;

/**
 * Parses JSON text into an untyped {@link JSONObject} for code that reads a few named members (configuration
 * values, controller log entries and bodies, stored metadata).
 *
 * <p>Use this instead of {@code JSON.parseObject(String)}: fastjson2's untyped reader throws
 * {@link IndexOutOfBoundsException} for an object cut off after a member name ({@code {"a"}), where every caller
 * expects a {@link JSONException} for malformed text.
 *
 * <p>Stateless; thread-safe.
 */
public final class JsonObjects {

    private JsonObjects() {
    }

    /**
     * @return the object, or null when the text is empty or the JSON literal {@code null} (as fastjson2 answers)
     * @throws JSONException when the text is not a JSON object
     */
    public static JSONObject parse(String text) {
        try {
            return JSON.parseObject(text);
        } catch (IndexOutOfBoundsException e) {
            throw new JSONException("unexpected end of JSON text", e);
        }
    }
}
