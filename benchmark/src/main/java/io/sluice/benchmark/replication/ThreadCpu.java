package io.sluice.benchmark.replication;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * A process's CPU time split by what its threads do, from Linux's {@code /proc/PID/task/TID/stat} and
 * {@code comm} (clock ticks of {@code USER_HZ} = 100 per second, the kernel's fixed value for these files): all
 * threads, the JIT compilers ({@code C1/C2 CompilerThread}: warm-up, not per-message work, and the largest source
 * of noise in a short run of a fresh JVM), and the broker's HA threads ({@code sluice-ha-*}: replication itself).
 * A thread that ended since an earlier snapshot takes its time with it; the broker's threads live for the run.
 *
 * @param totalNs every thread's user and system time
 * @param jitNs   the JIT compiler threads'
 * @param haNs    the HA threads' (accept, acks, push, sync deadline)
 */
record ThreadCpu(long totalNs, long jitNs, long haNs) {

    private static final long NS_PER_TICK = 10_000_000L;

    /** The time so far of process {@code pid}'s live threads. */
    static ThreadCpu of(long pid) throws IOException {
        long total = 0;
        long jit = 0;
        long ha = 0;
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(Path.of("/proc", Long.toString(pid), "task"))) {
            for (Path task : tasks) {
                String name;
                String stat;
                try {
                    name = Files.readString(task.resolve("comm")).trim();
                    stat = Files.readString(task.resolve("stat"));
                } catch (NoSuchFileException e) {
                    continue; // the thread ended between the listing and the read
                }
                // After the name's closing parenthesis: field 3 (state) onwards; utime is field 14, stime 15.
                String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                long ns = (Long.parseLong(fields[11]) + Long.parseLong(fields[12])) * NS_PER_TICK;
                total += ns;
                if (name.startsWith("C1 CompilerThre") || name.startsWith("C2 CompilerThre")) {
                    jit += ns;
                } else if (name.startsWith("sluice-ha-")) {
                    ha += ns;
                }
            }
        }
        return new ThreadCpu(total, jit, ha);
    }

    /** The time spent between {@code earlier} and this snapshot. */
    ThreadCpu minus(ThreadCpu earlier) {
        return new ThreadCpu(totalNs - earlier.totalNs, jitNs - earlier.jitNs, haNs - earlier.haNs);
    }
}
