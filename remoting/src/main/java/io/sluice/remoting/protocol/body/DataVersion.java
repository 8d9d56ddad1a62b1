package io.sluice.remoting.protocol.body;

/**
 * Version stamp of a broker's topic table (JSON {@code {"counter":1,"stateVersion":0,"timestamp":...}}). The broker
 * bumps {@code counter} (and {@code timestamp}) whenever its topic set changes; the name server compares the whole
 * stamp for equality to decide whether a registration carries new queue data.
 *
 * @param stateVersion the broker's master/slave state epoch (0 outside controller mode)
 * @param timestamp epoch milliseconds of the last change
 * @param counter number of changes so far
 */
public record DataVersion(long stateVersion, long timestamp, long counter) {

    /** The stamp of a broker that has not reported one: all zero. */
    public static final DataVersion ZERO = new DataVersion(0, 0, 0);

    /**
     * The next version after a change at {@code timestampMs}: same state version, counter plus one.
     *
     * @param timestampMs epoch milliseconds of the change
     * @return the bumped version
     */
    public DataVersion next(long timestampMs) {
        return new DataVersion(stateVersion, timestampMs, counter + 1);
    }
}
