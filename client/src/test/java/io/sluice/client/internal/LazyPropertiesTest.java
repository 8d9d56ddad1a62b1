package io.sluice.client.internal;

import io.sluice.format.MessageProperties;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

class LazyPropertiesTest {

    @Test
    void shouldReadAsTheParsedMapAndRefuseChanges() {
        Map<String, String> lazy = new LazyProperties("UNIQ_KEY\u0001abc\u0002TAGS\u0001t\u0002KEYS\u0001\u0002");
        assertEquals("abc", lazy.get("UNIQ_KEY"));
        assertTrue(lazy.containsKey("TAGS"));
        assertFalse(lazy.containsKey("KEYS"), "an empty value is dropped, as the eager parse drops it");
        assertNull(lazy.get("WAIT"));
        assertEquals(2, lazy.size());
        assertThrows(UnsupportedOperationException.class, () -> lazy.put("A", "b"));
        assertThrows(UnsupportedOperationException.class, () -> lazy.entrySet().clear());
    }

    @Property(tries = 300)
    void shouldEqualTheEagerParse(@ForAll("encoded") String encoded) {
        Map<String, String> eager = MessageProperties.parse(encoded);
        Map<String, String> lazy = new LazyProperties(encoded);
        assertEquals(eager, lazy);
        assertEquals(eager.hashCode(), lazy.hashCode());
        assertEquals(eager.toString(), lazy.toString(), "same iteration order");
    }

    @Property(tries = 300)
    void aRangeOfLargerBytesReadsAsItsOwnEncoding(@ForAll("encoded") String encoded) {
        byte[] inside = encoded.getBytes(StandardCharsets.UTF_8);
        byte[] around = new byte[inside.length + 7];
        Arrays.fill(around, (byte) 2); // separators around the range: read past it, they would change the map
        System.arraycopy(inside, 0, around, 3, inside.length);
        assertEquals(MessageProperties.parse(encoded), new LazyProperties(around, 3, inside.length));
    }

    @Test
    void aRangeOutsideItsArrayIsRefusedAtOnce() {
        assertThrows(IndexOutOfBoundsException.class, () -> new LazyProperties(new byte[4], 2, 3));
    }

    @Provide
    Arbitrary<String> encoded() {
        return Arbitraries.strings().withChars("AB\u0001\u0002xy").ofMaxLength(40);
    }
}
