package io.sluice.benchmark.load;

/**
 * The target publish rate of a run. Fixed when the workload names a rate; for {@code producerRate: 0} it searches
 * the highest sustainable rate: every second the sampler reports what was sent and received, and the target grows
 * by half while producers keep up with it and consumers keep up with producers. When either falls behind, the
 * target where that happened becomes the ceiling and the target falls to 80% of the rate actually achieved, but
 * never below half the target, so that one bad second (a GC pause, a rebalance) cannot throw the search back to
 * its start. It then holds for 3 s and grows again: by half while it is at most half the ceiling, by 10% steps
 * above that; a target that holds above the ceiling shows the ceiling was a passing stall, and lifts it. Seconds
 * before the first acknowledgement (connections, routes, JIT) are not observations.
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
    private double ceiling = Double.POSITIVE_INFINITY;
    private boolean acknowledged;

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
        if (!acknowledged && sentPerSecond == 0) {
            return;
        }
        acknowledged = true;
        double target = ratePerSecond;
        boolean producersKeepUp = sentPerSecond >= 0.9 * target;
        boolean consumersKeepUp = !consuming || backlogGrowth <= 0.1 * target;
        if (holdSeconds > 0) {
            holdSeconds--;
            return;
        }
        if (producersKeepUp && consumersKeepUp) {
            if (target > ceiling) {
                ceiling = Double.POSITIVE_INFINITY;
            }
            set(target * (target <= 0.5 * ceiling ? 1.5 : 1.1));
        } else {
            ceiling = target;
            set(Math.max(MIN_RATE, Math.max(0.5 * target, 0.8 * Math.min(target, sentPerSecond))));
            holdSeconds = 3;
        }
    }

    private void set(double rate) {
        ratePerSecond = rate;
        generation++;
    }
}
