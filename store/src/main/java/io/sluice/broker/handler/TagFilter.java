package io.sluice.broker.handler;

import io.sluice.remoting.protocol.body.SubscriptionData;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.function.LongPredicate;

/**
 * A TAG subscription as a filter on consume-queue tags codes (docs/wire-protocol.md#tags): {@code *} or an empty
 * expression matches everything; {@code TagA || TagB} matches units whose tags code, as an int, is the
 * {@code String.hashCode} of one of the tags. A unit without tag (code 0) matches only {@code *}. The client filters
 * again by tag string, so hash collisions are harmless.
 *
 * <p>Immutable; thread-safe.
 */
final class TagFilter implements LongPredicate {

    private final int[] codes;

    private TagFilter(int[] codes) {
        this.codes = codes;
    }

    /** The filter of a subscription expression; {@code null} when it matches everything. */
    static LongPredicate ofExpression(String expression) {
        if (isAll(expression)) {
            return null;
        }
        Set<Integer> codes = new LinkedHashSet<>();
        for (String tag : expression.split("\\|\\|")) {
            String trimmed = tag.trim();
            if (!trimmed.isEmpty()) {
                codes.add(trimmed.hashCode());
            }
        }
        return codes.isEmpty() ? null : of(codes);
    }

    /** The filter of a subscription registered by a heartbeat; {@code null} when it matches everything. */
    static LongPredicate ofSubscription(SubscriptionData subscription) {
        if (isAll(subscription.subString())) {
            return null;
        }
        if (subscription.codeSet().isEmpty()) {
            return ofExpression(subscription.subString());
        }
        return of(subscription.codeSet());
    }

    private static boolean isAll(String expression) {
        return expression == null || expression.isBlank() || SubscriptionData.SUB_ALL.equals(expression.trim());
    }

    private static TagFilter of(Set<Integer> codes) {
        int[] sorted = codes.stream().mapToInt(Integer::intValue).sorted().toArray();
        return new TagFilter(sorted);
    }

    @Override
    public boolean test(long tagsCode) {
        return Arrays.binarySearch(codes, (int) tagsCode) >= 0;
    }
}
