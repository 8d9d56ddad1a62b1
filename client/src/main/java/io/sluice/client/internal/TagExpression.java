package io.sluice.client.internal;

import io.sluice.client.ReceivedMessage;
import io.sluice.remoting.protocol.body.SubscriptionData;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.TreeSet;

/**
 * A tag subscription expression (docs/wire-protocol.md#tags): {@code *} (or empty) matches every message,
 * {@code A || B} matches messages whose tag is A or B. Immutable; thread-safe.
 *
 * @param expression the expression as given
 * @param tags the tags, empty for "every message"
 */
public record TagExpression(String expression, Set<String> tags) {

    /** Parses an expression. @throws IllegalArgumentException naming it when it lists no tag */
    public static TagExpression parse(String expression) {
        if (expression == null || expression.isBlank() || expression.trim().equals("*")) {
            return new TagExpression("*", Set.of());
        }
        Set<String> tags = new LinkedHashSet<>();
        for (String part : expression.split("\\|\\|")) {
            String tag = part.trim();
            if (!tag.isEmpty()) {
                tags.add(tag);
            }
        }
        if (tags.isEmpty()) {
            throw new IllegalArgumentException("tag expression '" + expression + "' names no tag");
        }
        return new TagExpression(expression, Set.copyOf(tags));
    }

    /** True for {@code *}. */
    public boolean matchesAll() {
        return tags.isEmpty();
    }

    /** Whether {@code message} passes the filter (by tag string, so hash collisions do not matter). */
    public boolean matches(ReceivedMessage message) {
        return tags.isEmpty() || message.tags() != null && tags.contains(message.tags());
    }

    /** The subscription as sent in heartbeats. */
    public SubscriptionData toSubscription(String topic, long subVersion) {
        Set<Integer> codes = new TreeSet<>();
        tags.forEach(tag -> codes.add(tag.hashCode()));
        return new SubscriptionData(topic, matchesAll() ? "*" : String.join(" || ", new TreeSet<>(tags)),
                new TreeSet<>(tags), codes, subVersion, SubscriptionData.EXPRESSION_TYPE_TAG, false);
    }
}
