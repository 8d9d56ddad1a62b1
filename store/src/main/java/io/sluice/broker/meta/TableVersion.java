package io.sluice.broker.meta;

/**
 * Version stamp of a metadata table (Apache RocketMQ's {@code DataVersion}): the broker bumps {@code counter}
 * on every change of its topic table, and the name server compares stamps to decide whether to re-read the
 * broker's queue data. JSON form: {@code {"counter":1,"stateVersion":0,"timestamp":1795250930447}}.
 *
 * <p>Immutable; thread-safe.
 *
 * @param stateVersion Apache's controller-mode state version; always 0 in Sluice
 * @param timestamp    epoch milliseconds of the last change
 * @param counter      number of changes so far; strictly increasing for one table, across restarts
 */
public record TableVersion(long stateVersion, long timestamp, long counter) {

    /** Validates the components. */
    public TableVersion {
        if (counter < 0) {
            throw new IllegalArgumentException("dataVersion counter must be >= 0: " + counter);
        }
    }

    /** The version of a table that has never changed. */
    public static TableVersion initial(long nowMs) {
        return new TableVersion(0, nowMs, 0);
    }

    /** The version after one more change at {@code nowMs}. */
    public TableVersion next(long nowMs) {
        return new TableVersion(stateVersion, nowMs, counter + 1);
    }
}
