package io.sluice.benchmark.load;

/**
 * The target publish rate of a run. Fixed when the workload names a rate; for {@code producerRate: 0} it searches
 * the highest sustainable rate: every second the sampler reports what was sent and received, and the target grows
 * by half while producers keep up with it and consumers keep up with producers, and falls to 80% of the rate
 * actually achieved when either falls behind (then holds for 3 s before growing again, by 10% steps).
 *
 * <p>Written by the sampler thread only; producers read {@link #ratePerSecond()} (volatile).
 */
final class RateController {

    private static final double START_RATE = 5_000;
    private static final double MIN_RATE = 100;

    private final boolean adaptive;
    private volatile double ratePerSecond;
    private volatile long generation;
    // Sampler thread only.
    private int holdSeconds;
    private boolean backedOff;

    RateController(long fixedRatePerSecond) {
        this.adaptive = fixedRatePerSecond == 0;
        this.ratePerSecond = adaptive ? START_RATE : fixedRatePerSecond;
    }

    /** The current target over all producers, messages per second. */
    double ratePerSecond() {
        return ratePerSecond;
    }

    /** Changes each time the target changes, so producers restart their schedule from now. */
    long generation() {
        return generation;
    }

    boolean adaptive() {
        return adaptive;
    }

    /**
     * One second's observation.
     *
     * @param sentPerSecond     messages acknowledged in the last second
     * @param backlogGrowth     growth of the consumers' backlog in the last second, in messages (per subscription)
     * @param consuming         whether consumers run (a backlog build has none)
     */
    void observe(double sentPerSecond, double backlogGrowth, boolean consuming) {
        if (!adaptive) {
            return;
        }
        double target = ratePerSecond;
        boolean producersKeepUp = sentPerSecond >= 0.9 * target;
        boolean consumersKeepUp = !consuming || backlogGrowth <= 0.1 * target;
        if (holdSeconds > 0) {
            holdSeconds--;
            return;
        }
        if (producersKeepUp && consumersKeepUp) {
            set(target * (backedOff ? 1.1 : 1.5));
        } else {
            set(Math.max(MIN_RATE, 0.8 * Math.min(target, sentPerSecond)));
            backedOff = true;
            holdSeconds = 3;
        }
    }

    private void set(double rate) {
        ratePerSecond = rate;
        generation++;
    }
}
