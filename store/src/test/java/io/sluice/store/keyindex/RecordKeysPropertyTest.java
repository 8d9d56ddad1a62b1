package io.sluice.store.keyindex;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.sluice.format.MessageProperties;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

/**
 * The keys a record is indexed under, against a model: the unique key first, then each non-empty space-separated
 * KEYS entry in order, at most {@code maxKeys} in all; a lookup matches whole keys only, never a part of one.
 */
class RecordKeysPropertyTest {

    @Property(tries = 300)
    void shouldOfferTheUniqueKeyThenEachKeyInOrderUpToTheMaximum(
            @ForAll("keyLists") List<String> keys, @ForAll("keys") String unique, @ForAll boolean withUnique,
            @ForAll @IntRange(min = 0, max = 12) int maxKeys, @ForAll @IntRange(min = 1, max = 3) int spaces) {
        String properties = properties(keys, withUnique ? unique : null, spaces);
        List<String> offered = new ArrayList<>();
        int skipped = RecordKeys.forEachKey(properties, maxKeys, (kind, key) -> offered.add(kind + key));

        List<String> expected = new ArrayList<>();
        if (withUnique) {
            expected.add(KeyHash.KIND_UNIQUE + unique);
        }
        int room = Math.max(0, maxKeys - expected.size());
        keys.stream().limit(room).forEach(k -> expected.add(KeyHash.KIND_KEY + k));
        assertEquals(expected, offered);
        assertEquals(Math.max(0, keys.size() - room), skipped);
    }

    @Property(tries = 300)
    void shouldMatchWholeKeysOnly(@ForAll("keyLists") List<String> keys, @ForAll("keys") String probe,
                                  @ForAll @IntRange(min = 1, max = 3) int spaces) {
        String properties = properties(keys, null, spaces);
        assertEquals(keys.contains(probe), RecordKeys.carries(properties, KeyHash.KIND_KEY, probe), properties);
        for (String key : keys) {
            assertEquals(true, RecordKeys.carries(properties, KeyHash.KIND_KEY, key));
            if (key.length() > 1) {
                String part = key.substring(1);
                assertEquals(keys.contains(part), RecordKeys.carries(properties, KeyHash.KIND_KEY, part),
                        "a part of " + key);
            }
        }
        assertEquals(false, RecordKeys.carries(properties, KeyHash.KIND_KEY, ""), "the empty key");
        assertEquals(false, RecordKeys.carries(properties, KeyHash.KIND_UNIQUE, probe), "no unique key");
    }

    @Property(tries = 200)
    void shouldMatchTheUniqueKeyExactly(@ForAll("keys") String unique, @ForAll("keys") String probe) {
        String properties = properties(List.of(), unique, 1);
        assertEquals(unique.equals(probe), RecordKeys.carries(properties, KeyHash.KIND_UNIQUE, probe));
        assertEquals(false, RecordKeys.carries(properties, KeyHash.KIND_KEY, unique), "a unique key is no key");
    }

    /** Properties with these KEYS joined by {@code spaces} spaces (and as many around them), and the UNIQ_KEY. */
    private static String properties(List<String> keys, String unique, int spaces) {
        String gap = " ".repeat(spaces);
        Map<String, String> map = new LinkedHashMap<>();
        map.put("TAGS", "t");
        if (!keys.isEmpty()) {
            map.put(MessageProperties.KEYS, gap + String.join(gap, keys) + gap);
        }
        if (unique != null) {
            map.put(MessageProperties.UNIQ_KEY, unique);
        }
        return MessageProperties.encode(map);
    }

    /** Short keys over a small alphabet, so that keys often share parts and lists often repeat a probe. */
    @Provide
    Arbitrary<String> keys() {
        return Arbitraries.strings().withChars("abcé0-_").ofMinLength(1).ofMaxLength(4);
    }

    @Provide
    Arbitrary<List<String>> keyLists() {
        return keys().list().ofMaxSize(10);
    }

    @Property(tries = 50)
    void shouldOfferNothingWithoutKeys(@ForAll @IntRange(min = 1, max = 3) int spaces,
                                       @ForAll @IntRange(min = 0, max = 4) int maxKeys) {
        Map<String, String> onlySpaces = Map.of(MessageProperties.KEYS, " ".repeat(spaces));
        assertEquals(0, RecordKeys.forEachKey(MessageProperties.encode(onlySpaces), maxKeys, (kind, key) -> {
            throw new AssertionError("offered " + kind + key);
        }));
        assertEquals(0, RecordKeys.forEachKey(properties(List.of(), null, spaces), maxKeys, (kind, key) -> {
            throw new AssertionError("offered " + kind + key);
        }));
    }
}
