package io.sluice.broker.handler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.remoting.protocol.body.SubscriptionData;
import java.util.Set;
import java.util.function.LongPredicate;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.AlphaChars;
import net.jqwik.api.constraints.StringLength;
import org.junit.jupiter.api.Test;

class TagFilterTest {

    @Test
    void shouldMatchEverythingForStarOrEmptyExpressions() {
        assertNull(TagFilter.ofExpression("*"));
        assertNull(TagFilter.ofExpression(" * "));
        assertNull(TagFilter.ofExpression(""));
        assertNull(TagFilter.ofExpression(null));
        assertNull(TagFilter.ofExpression(" || "));
    }

    @Test
    void shouldMatchListedTagsOnly() {
        LongPredicate filter = TagFilter.ofExpression("TagB || TagC");
        assertTrue(filter.test("TagB".hashCode()));
        assertTrue(filter.test("TagC".hashCode()));
        assertFalse(filter.test("TagA".hashCode()));
        assertFalse(filter.test(0), "a message without tag matches only *");
    }

    @Test
    void shouldUseTheClientsCodeSetOfARegisteredSubscription() {
        SubscriptionData sub = new SubscriptionData("T", "TagB || TagC", Set.of("TagB", "TagC"),
                Set.of(2598921, 2598920), 1, "TAG", false);
        LongPredicate filter = TagFilter.ofSubscription(sub);
        assertTrue(filter.test(2598921));
        assertTrue(filter.test(2598920));
        assertEquals("TagB".hashCode(), 2598920);
        assertNull(TagFilter.ofSubscription(new SubscriptionData("T", "*", Set.of(), Set.of(), 1, "TAG", false)));
        LongPredicate fromText = TagFilter.ofSubscription(new SubscriptionData("T", "X", Set.of(), Set.of(), 1, "TAG",
                false));
        assertTrue(fromText.test("X".hashCode()));
    }

    @Property(tries = 200)
    void shouldMatchTheSignExtendedTagsCodeOfEachListedTag(@ForAll @AlphaChars @StringLength(min = 1, max = 12) String a,
                                                          @ForAll @AlphaChars @StringLength(min = 1, max = 12) String b) {
        LongPredicate filter = TagFilter.ofExpression(a + " || " + b);
        assertTrue(filter.test((long) a.hashCode()));
        assertTrue(filter.test((long) b.hashCode()));
    }
}
