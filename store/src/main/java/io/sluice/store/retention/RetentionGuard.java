package io.sluice.store.retention;

/**
 * What retention must ask before deleting CommitLog segments under disk pressure: which positions consumers have
 * not read yet, and which the broker itself still needs. The store knows neither (consumer groups, timers and
 * transactions live above it); the broker implements this, and the store asks it on its housekeeping thread.
 *
 * <p>Retention's rules with a guard (see {@link RetentionAgent}): under disk pressure it deletes segments that
 * have expired or that lie wholly below {@link #unconsumedFromPosition()}; only {@code cleanFileForcibly} deletes
 * unread segments, and then it reports {@link #describeUnreadBelow}. No deletion, forced or not, removes a
 * segment reaching {@link #neededFromPosition()} or above.
 *
 * <p>Implementations must be thread-safe and cheap enough for one call per retention check.
 */
public interface RetentionGuard {

    /**
     * No guard: nothing is known to be consumed (pressure deletes only expired segments) and the broker needs
     * nothing.
     */
    RetentionGuard NONE = new RetentionGuard() {
        @Override
        public long unconsumedFromPosition() {
            return 0;
        }

        @Override
        public long neededFromPosition() {
            return Long.MAX_VALUE;
        }

        @Override
        public String describeUnreadBelow(long minPosition) {
            return "no consumer groups known";
        }
    };

    /**
     * The lowest CommitLog position holding a message that a consumer group has not consumed yet;
     * {@link Long#MAX_VALUE} when everything has been consumed. Segments wholly below it hold nothing unread.
     */
    long unconsumedFromPosition();

    /**
     * The lowest CommitLog position the broker itself still needs (a pending timer, an unresolved half message);
     * {@link Long#MAX_VALUE} when none. Segments reaching it are never deleted.
     */
    long neededFromPosition();

    /**
     * After forced deletion moved the log's first position to {@code minPosition}: the consumer groups, queues and
     * offset ranges that were not consumed and are gone, as one line of text for a WARN.
     */
    String describeUnreadBelow(long minPosition);
}
