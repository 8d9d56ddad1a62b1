package io.sluice.benchmark.client;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * Where one measured run's CPU went, in a JVM that holds both the broker and a producer: the producer's threads
 * (the sending thread and every thread the client starts), the broker's threads (Sluice threads that are not the
 * client's), and the rest of the process (JIT compiler and GC threads, which are not Java threads, and the JVM's
 * own Java threads such as the Reference Handler). Threads of a producer closed before the run (and still
 * winding down) count as client, as do all threads that are neither Sluice's nor the JVM's. Both
 * producers share the broker, so comparing the split shows whether a difference in rate comes from the client or
 * from what the broker does with the client's requests.
 *
 * <p>Used by one thread: {@link #start()} before the measured interval, {@link #stop()} after it and before the
 * producer is closed (a thread that ends inside the interval loses its share).
 */
final class CpuSplit {
    /**
     * The JVM's own Java threads. Their work belongs to neither side: the Reference Handler, for one, unmaps the
     * segments of the store a previous run deleted, whichever producer runs.
     */
    private static final Set<String> JVM_THREADS = Set.of("Reference Handler", "Finalizer", "Signal Dispatcher",
            "Common-Cleaner", "Notification Thread", "Attach Listener");

    private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    private final com.sun.management.OperatingSystemMXBean os =
            (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    private final long sendingThreadId = Thread.currentThread().getId();
    private Map<Long, Long> cpuNsAtStart = Map.of();
    private long processCpuNsAtStart;
    private long machineBusyNsAtStart;

    /** CPU nanoseconds of one interval, by side, and by thread group (thread names without their numbers). */
    record Split(long clientNs, long brokerNs, long otherNs, long machineNs, Map<String, Long> byGroupNs) {
        String perMessage(long messages) {
            double n = Math.max(1, messages);
            StringBuilder groups = new StringBuilder();
            byGroupNs.entrySet().stream().sorted(Map.Entry.<String, Long>comparingByValue().reversed()).limit(8)
                    .forEach(e -> groups.append(String.format("%n      %-28s %6.0f", e.getKey(), e.getValue() / n)));
            return String.format("cpu ns/msg: client %.0f, broker %.0f, jvm %.0f; machine %.0f%s", clientNs / n,
                    brokerNs / n, otherNs / n, machineNs / n, groups);
        }
    }

    void start() {
        machineBusyNsAtStart = machineBusyNs();
        processCpuNsAtStart = os.getProcessCpuTime();
        cpuNsAtStart = snapshot();
    }

    Split stop() {
        long processNs = os.getProcessCpuTime() - processCpuNsAtStart;
        long machineNs = machineBusyNs() - machineBusyNsAtStart;
        long clientNs = 0;
        long brokerNs = 0;
        Map<String, Long> byGroupNs = new HashMap<>();
        for (ThreadInfo info : threads.getThreadInfo(threads.getAllThreadIds())) {
            if (info == null) {
                continue;
            }
            long cpuNs = threads.getThreadCpuTime(info.getThreadId());
            if (cpuNs < 0) {
                continue;
            }
            long usedNs = cpuNs - cpuNsAtStart.getOrDefault(info.getThreadId(), 0L);
            byGroupNs.merge(info.getThreadId() == sendingThreadId ? "(sending thread)"
                    : info.getThreadName().replaceAll("[-_#]?[0-9]+", ""), usedNs, Long::sum);
            if (JVM_THREADS.contains(info.getThreadName())) {
                continue; // counted in the rest of the process
            }
            if (isClient(info)) {
                clientNs += usedNs;
            } else {
                brokerNs += usedNs;
            }
        }
        return new Split(clientNs, brokerNs, Math.max(0, processNs - clientNs - brokerNs), machineNs, byGroupNs);
    }

    private boolean isClient(ThreadInfo info) {
        String name = info.getThreadName();
        return info.getThreadId() == sendingThreadId
                || name.startsWith("sluice-client") || name.startsWith("sluice-batch-linger")
                || name.startsWith("sluice-producer")
                || !name.startsWith("sluice-");
    }

    /**
     * Busy CPU time of the whole machine so far (Linux {@code /proc/stat}: every state but idle, iowait and
     * steal), which includes kernel threads such as page-cache writeback that run on the same cores; 0 where
     * unreadable.
     */
    static long machineBusyNs() {
        try {
            String[] fields = java.nio.file.Files.readAllLines(java.nio.file.Path.of("/proc/stat")).get(0).trim()
                    .split("\\s+");
            long busyTicks = 0;
            for (int i = 1; i < Math.min(fields.length, 9); i++) {
                if (i != 4 && i != 5 && i != 8) { // idle, iowait, steal
                    busyTicks += Long.parseLong(fields[i]);
                }
            }
            return busyTicks * 10_000_000L; // USER_HZ is 100 on Linux
        } catch (java.io.IOException | RuntimeException e) {
            return 0;
        }
    }

    private Map<Long, Long> snapshot() {
        Map<Long, Long> cpuNs = new HashMap<>();
        for (long id : threads.getAllThreadIds()) {
            long ns = threads.getThreadCpuTime(id);
            if (ns >= 0) {
                cpuNs.put(id, ns);
            }
        }
        return cpuNs;
    }
}
