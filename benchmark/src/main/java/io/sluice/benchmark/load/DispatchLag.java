package io.sluice.benchmark.load;

import java.util.Optional;
import org.HdrHistogram.Histogram;

/**
 * A broker's dispatch lag over the measured phase: how far the position below which every record's consume-queue
 * slot is written trails the CommitLog's written (confirmed) position, sampled by {@link DispatchLagSampler}.
 * Immutable.
 *
 * @param samples      successful samples
 * @param failures     samples that got no usable answer
 * @param firstFailure the first failure, or null when none failed
 * @param bytes        the lag in bytes; empty when no sample succeeded
 * @param ms           the lag in milliseconds; empty when no successful sample carried it (Apache's broker
 *                     reports bytes only)
 */
record DispatchLag(long samples, long failures, String firstFailure, Optional<Figures> bytes,
                   Optional<Figures> ms) {

    /** One line for the log: percentiles of both units, samples and failures. */
    String summary() {
        return "p50/p99/max " + ms.map(f -> f.p50() + "/" + f.p99() + "/" + f.max() + " ms, ").orElse("")
                + bytes.map(f -> f.p50() + "/" + f.p99() + "/" + f.max() + " bytes, ").orElse("no successful sample, ")
                + samples + " samples, " + failures + " failed";
    }

    /** Percentiles of one histogram, in its unit (HdrHistogram, 3 significant digits). */
    record Figures(long p50, long p99, long max, long count) {

        /** The figures of {@code histogram}; empty when it holds nothing. */
        static Optional<Figures> of(Histogram histogram) {
            if (histogram.getTotalCount() == 0) {
                return Optional.empty();
            }
            return Optional.of(new Figures(histogram.getValueAtPercentile(50), histogram.getValueAtPercentile(99),
                    histogram.getMaxValue(), histogram.getTotalCount()));
        }
    }
}
