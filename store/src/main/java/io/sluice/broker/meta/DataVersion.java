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
public record DataVersion(long stateVersion, long timestamp, long counter) {

    /** Validates the components. */
    public DataVersion {
        if (counter < 0) {
            throw new IllegalArgumentException("dataVersion counter must be >= 0: " + counter);
        }
    }

    /** The version of a table that has never changed. */
    public static DataVersion initial(long nowMs) {
        return new DataVersion(0, nowMs, 0);
    }

    /** The version after one more change at {@code nowMs}. */
    public DataVersion next(long nowMs) {
        return new DataVersion(stateVersion, nowMs, counter + 1);
    }
}
