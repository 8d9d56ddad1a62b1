package io.sluice.benchmark;

import java.lang.management.ManagementFactory;
import java.util.Collection;
import java.util.List;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.profile.InternalProfiler;
import org.openjdk.jmh.results.AggregationPolicy;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.ScalarResult;

/**
 * A JMH profiler ({@code -prof io.sluice.benchmark.ProcessCpuProfiler}) for benchmarks whose work runs on threads
 * the code under test starts and stops itself (dispatchers, pipelines), which a per-thread count would miss. It
 * reads the forked VM's whole CPU time during each iteration and reports
 *
 * <ul>
 *   <li>{@code process.cpu.cores}: that CPU time over the iteration time (how many cores the VM kept busy);</li>
 *   <li>{@code process.cpu.ns.per.op}: CPU nanoseconds per operation, every thread included (GC and JIT too).
 *       Comparing it between two designs separates "does less work" from "spreads the work over more cores".</li>
 * </ul>
 *
 * <p>Created by JMH in the forked VM, used by its runner thread only.
 */
public final class ProcessCpuProfiler implements InternalProfiler {

    private final com.sun.management.OperatingSystemMXBean os =
            (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    private long cpuNsBefore;
    private long wallNsBefore;

    @Override
    public String getDescription() {
        return "CPU time of the whole forked VM per iteration: cores kept busy, CPU ns per operation";
    }

    @Override
    public void beforeIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams) {
        cpuNsBefore = os.getProcessCpuTime();
        wallNsBefore = System.nanoTime();
    }

    @Override
    public Collection<? extends Result<?>> afterIteration(BenchmarkParams benchmarkParams,
                                                          IterationParams iterationParams, IterationResult result) {
        long cpuNs = os.getProcessCpuTime() - cpuNsBefore;
        long wallNs = System.nanoTime() - wallNsBefore;
        if (cpuNs <= 0 || wallNs <= 0 || result.getRawPrimaryResults().isEmpty()
                || !result.getScoreUnit().endsWith("/s")) {
            return List.of();
        }
        // The iteration's wall time, measured here: an iteration overruns its nominal time by the invocation in
        // progress, and per-invocation setup is in the CPU time too, so this counts slightly more operations than
        // ran (ns/op errs low by the setup's share of the time, the same for every design compared).
        double seconds = wallNs / 1e9;
        double operations = result.getPrimaryResult().getScore() * seconds;
        return List.of(
                new ScalarResult("process.cpu.cores", cpuNs / 1e9 / seconds, "cores", AggregationPolicy.AVG),
                new ScalarResult("process.cpu.ns.per.op", cpuNs / operations, "ns/op", AggregationPolicy.AVG));
    }
}
