package io.sluice.benchmark.store;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.profile.InternalProfiler;
import org.openjdk.jmh.results.AggregationPolicy;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.ScalarResult;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * A JMH profiler ({@code -prof io.sluice.benchmark.store.WorkerCpuProfiler}) for throughput benchmarks on a
 * shared, oversubscribed machine: it reads the CPU time the benchmark's worker threads actually got during each
 * iteration and reports
 *
 * <ul>
 *   <li>{@code worker.cpu.share}: that CPU time over the iteration time (1 = a whole core per worker thread);</li>
 *   <li>{@code ops.per.cpu.s}: operations per CPU-second of the workers, i.e. the throughput the code would have
 *       with the cores to itself; unlike ops/s it does not move with how much of the machine others use, so
 *       ratios between benchmarks taken from it are far steadier.</li>
 * </ul>
 *
 * <p>Background threads of the code under test (allocators, flushers, the GC) are not counted: their cost shows
 * in ops/s only. Setup done by the worker at iteration level is counted, so keep it cheap or waiting (parked).
 *
 * <p>Created by JMH in the forked VM, used by its runner thread only.
 */
public final class WorkerCpuProfiler implements InternalProfiler {

    private static final String WORKER_NAME_PART = "jmh-worker";
    private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    private long workerCpuNsBefore;

    @Override
    public String getDescription() {
        return "CPU time of the benchmark's worker threads, and operations per worker CPU-second";
    }

    @Override
    public void beforeIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams) {
        workerCpuNsBefore = workerCpuNs();
    }

    @Override
    public Collection<? extends Result<?>> afterIteration(BenchmarkParams benchmarkParams,
                                                          IterationParams iterationParams, IterationResult result) {
        long cpuNs = workerCpuNs() - workerCpuNsBefore;
        TimeValue time = iterationParams.getTime();
        // No primary result: the iteration failed (JMH reports that itself).
        if (cpuNs <= 0 || time == null || time.getTime() <= 0 || result.getRawPrimaryResults().isEmpty()
                || !result.getScoreUnit().endsWith("/s")) {
            return List.of();
        }
        double seconds = time.convertTo(TimeUnit.NANOSECONDS) / 1e9;
        double workers = benchmarkParams.getThreads();
        double cpuSeconds = cpuNs / 1e9;
        double operations = result.getPrimaryResult().getScore() * seconds;
        return List.of(
                new ScalarResult("worker.cpu.share", cpuSeconds / (seconds * workers), "cores/thread",
                        AggregationPolicy.AVG),
                new ScalarResult("ops.per.cpu.s", operations / cpuSeconds, "ops/cpu-s", AggregationPolicy.AVG));
    }

    private long workerCpuNs() {
        long total = 0;
        long[] ids = threads.getAllThreadIds();
        ThreadInfo[] infos = threads.getThreadInfo(ids);
        for (int i = 0; i < ids.length; i++) {
            if (infos[i] != null && infos[i].getThreadName().contains(WORKER_NAME_PART)) {
                long ns = threads.getThreadCpuTime(ids[i]);
                if (ns > 0) {
                    total += ns;
                }
            }
        }
        return total;
    }
}
