package io.sluice.client.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.client.ReceivedMessage;
import io.sluice.remoting.protocol.body.SubscriptionData;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.AlphaChars;
import net.jqwik.api.constraints.Size;
import net.jqwik.api.constraints.StringLength;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.NullSource;
import org.junit.jupiter.params.provider.ValueSource;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;

/** Tag subscriptions: parsing, matching and the form sent in heartbeats (what the broker filters by). */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class TagExpressionTest {

    @ParameterizedTest
    @NullSource
    @ValueSource(strings = {"", "  ", "*", " * "})
    void starOrNothingMatchesEveryMessage(String text) {
        TagExpression all = TagExpression.parse(text);
        assertTrue(all.matchesAll());
        assertTrue(all.matches(message("A")));
        assertTrue(all.matches(message(null)), "a message without a tag too");
        SubscriptionData sub = all.toSubscription("T", 7);
        assertEquals("*", sub.subString());
        assertEquals(Set.of(), sub.tagsSet());
        assertEquals(Set.of(), sub.codeSet());
        assertEquals(7, sub.subVersion());
    }

    @ParameterizedTest
    @ValueSource(strings = {"||", " || || ", "|| "})
    void anExpressionOfOnlySeparatorsIsRefusedNamingIt(String text) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> TagExpression.parse(text));
        assertEquals("tag expression '" + text + "' names no tag", e.getMessage());
    }

    @ParameterizedTest
    @ValueSource(strings = {"A||B", " A || B ", "B || A || A", "A ||  || B"})
    void alternativesMatchExactlyTheirTags(String text) {
        TagExpression e = TagExpression.parse(text);
        assertFalse(e.matchesAll());
        assertEquals(Set.of("A", "B"), e.tags());
        assertTrue(e.matches(message("A")));
        assertTrue(e.matches(message("B")));
        assertFalse(e.matches(message("C")));
        assertFalse(e.matches(message("a")), "tags are case-sensitive");
        assertFalse(e.matches(message(null)), "a message without a tag has none of them");
        assertEquals("A || B", e.toSubscription("T", 1).subString(), "sorted, one separator form");
    }

    @Property(tries = 200)
    void theHeartbeatFormCarriesEachTagAndItsHashCode(
            @ForAll @Size(min = 1, max = 6) List<@AlphaChars @StringLength(min = 1, max = 10) String> tags) {
        TagExpression e = TagExpression.parse(String.join(" || ", tags));
        SubscriptionData sub = e.toSubscription("T", 3);
        TreeSet<String> expected = new TreeSet<>(tags);
        assertEquals(expected, sub.tagsSet());
        assertEquals(String.join(" || ", expected), sub.subString());
        TreeSet<Integer> codes = new TreeSet<>();
        expected.forEach(t -> codes.add(t.hashCode()));
        assertEquals(codes, sub.codeSet());
        assertEquals(SubscriptionData.EXPRESSION_TYPE_TAG, sub.expressionType());
        for (String tag : tags) {
            assertTrue(e.matches(message(tag)), tag);
        }
        assertEquals(TagExpression.parse(sub.subString()).tags(), e.tags(), "the sent form parses back");
    }

    private static ReceivedMessage message(String tag) {
        Map<String, String> properties = new HashMap<>();
        if (tag != null) {
            properties.put("TAGS", tag);
        }
        return new ReceivedMessage("T", 0, "b", 0, new byte[0], 0, 0, properties, 0, null, 0, null, 0, 0, "id");
    }
}
