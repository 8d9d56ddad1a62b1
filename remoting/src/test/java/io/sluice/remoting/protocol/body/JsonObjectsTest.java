package io.sluice.remoting.protocol.body;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.alibaba.fastjson2.JSONException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Untyped JSON parsing answers malformed text with a {@link JSONException}, however the text is cut. */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class JsonObjectsTest {

    @ParameterizedTest
    @ValueSource(strings = {"{\"a\"", "{\"a\"   ", "{\"type\"", "{\"a\":", "{\"a\":\"x\",", "{", "[", "{\"a\":1}}",
        "{\"a\":[1,}", "\"a\"", "12"})
    void malformedTextIsAJsonException(String text) {
        assertThrows(JSONException.class, () -> JsonObjects.parse(text), text);
    }

    @Test
    void anObjectIsReadMemberForMember() {
        assertEquals("x", JsonObjects.parse("{\"a\":\"x\",\"b\":[1,2]}").getString("a"));
        assertEquals(2, JsonObjects.parse("{\"a\":\"x\",\"b\":[1,2]}").getJSONArray("b").getIntValue(1));
        assertEquals(0, JsonObjects.parse(" {} ").size());
    }

    @Test
    void theNullLiteralAndEmptyTextAreNull() {
        assertNull(JsonObjects.parse("null"));
        assertNull(JsonObjects.parse(""));
    }
}
