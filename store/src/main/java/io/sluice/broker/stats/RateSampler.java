package io.sluice.broker.stats;

/**
 * A ring of (time, running total) samples from which rates over recent windows are computed.
 *
 * <p>Thread-safe: {@link #sample} runs on the sampling thread and {@link #perSecond} on admin threads; both hold
 * this object's monitor for a few array reads or writes.
 */
final class RateSampler {

    private final long[] timesMs;
    private final long[] totals;
    private int newest = -1;
    private int count;

    /** @param capacity samples kept, at least 2; with one sample a second, the longest window is capacity - 1 s */
    RateSampler(int capacity) {
        if (capacity < 2) {
            throw new IllegalArgumentException("capacity must be >= 2, was " + capacity);
        }
        this.timesMs = new long[capacity];
        this.totals = new long[capacity];
    }

    /** Records the running total at {@code nowMs}. */
    synchronized void sample(long nowMs, long total) {
        newest = (newest + 1) % timesMs.length;
        timesMs[newest] = nowMs;
        totals[newest] = total;
        count = Math.min(count + 1, timesMs.length);
    }

    /**
     * The average increase per second between the newest sample and the oldest kept sample no older than
     * {@code windowMs} before it; 0 with fewer than two samples.
     */
    synchronized double perSecond(long windowMs) {
        if (count < 2) {
            return 0;
        }
        long newestMs = timesMs[newest];
        int oldest = newest;
        for (int i = 1; i < count; i++) {
            int candidate = Math.floorMod(newest - i, timesMs.length);
            if (newestMs - timesMs[candidate] > windowMs) {
                break;
            }
            oldest = candidate;
        }
        long elapsedMs = newestMs - timesMs[oldest];
        if (elapsedMs <= 0) {
            return 0;
        }
        return (totals[newest] - totals[oldest]) * 1000.0 / elapsedMs;
    }
}
