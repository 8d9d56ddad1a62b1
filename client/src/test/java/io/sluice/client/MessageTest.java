package io.sluice.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** {@link Message}: the builder-free form has the builder's defaults; built messages do not follow the builder. */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class MessageTest {

    private static final byte[] BODY = "body".getBytes(StandardCharsets.UTF_8);

    @Test
    void ofHasTheDefaultsOfAnEmptyBuilder() {
        Message plain = Message.of("T", BODY);
        Message built = Message.builder("T", BODY).build();
        for (Message m : List.of(plain, built)) {
            assertEquals("T", m.topic());
            assertSame(BODY, m.body(), "the body is the caller's array");
            assertNull(m.tags());
            assertNull(m.keys());
            assertEquals(0, m.flag());
            assertTrue(m.waitStoreMsgOk());
            assertEquals(Map.of(), m.properties());
        }
        assertEquals(built.toString(), plain.toString());
    }

    @Test
    void ofRefusesNullsByName() {
        assertEquals("topic", assertThrows(NullPointerException.class, () -> Message.of(null, BODY)).getMessage());
        assertEquals("body", assertThrows(NullPointerException.class, () -> Message.of("T", null)).getMessage());
    }

    @Test
    void propertiesKeepTheirOrderAndABuiltMessageDoesNotSeeLaterOnes() {
        Message.Builder builder = Message.builder("T", BODY).property("b", "2").property("a", "1");
        Message first = builder.build();
        builder.property("c", "3");
        Message second = builder.build();
        assertEquals(List.of("b", "a"), List.copyOf(first.properties().keySet()));
        assertEquals(List.of("b", "a", "c"), List.copyOf(second.properties().keySet()));
        assertThrows(UnsupportedOperationException.class, () -> first.properties().put("d", "4"));
    }
}
