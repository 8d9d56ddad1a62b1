package io.sluice.store.keyindex;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.AlphaChars;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.NumericChars;
import net.jqwik.api.constraints.StringLength;

/**
 * The key hash keeps apart what a lookup must tell apart (topic from key, a key from a unique key) and its slot
 * always lies in the file's slot table. Topics are letters, digits and a few marks (never a NUL, the separator).
 */
class KeyHashPropertyTest {

    @Property(tries = 500)
    void shouldSeparateTopicFromKey(@ForAll @StringLength(min = 2, max = 24) @AlphaChars @NumericChars String text,
                                    @ForAll @IntRange(min = 1, max = 23) int cut) {
        int at = Math.min(cut, text.length() - 1);
        int other = at == 1 ? 2 : 1;
        if (other >= text.length()) {
            return; // a two-character text has one cut only
        }
        long one = KeyHash.of(text.substring(0, at), KeyHash.KIND_KEY, text.substring(at));
        long two = KeyHash.of(text.substring(0, other), KeyHash.KIND_KEY, text.substring(other));
        assertNotEquals(one, two, "the same characters split at " + at + " and " + other);
    }

    @Property(tries = 500)
    void shouldSeparateKeysFromUniqueKeysAndBeStable(@ForAll @StringLength(max = 16) String topic,
                                                     @ForAll @StringLength(min = 1, max = 32) String key) {
        long asKey = KeyHash.of(topic, KeyHash.KIND_KEY, key);
        assertNotEquals(asKey, KeyHash.of(topic, KeyHash.KIND_UNIQUE, key));
        assertEquals(asKey, KeyHash.of(topic, KeyHash.KIND_KEY, new StringBuilder(key)), "any CharSequence");
    }

    @Property(tries = 1_000)
    void shouldPickASlotInsideTheTable(@ForAll long hash, @ForAll @IntRange(min = 1, max = 5_000_000) int slots) {
        int slot = KeyHash.slotOf(hash, slots);
        assertTrue(slot >= 0 && slot < slots, slot + " of " + slots);
        assertEquals((int) (hash >>> 32), KeyHash.storedHashOf(hash));
    }
}
