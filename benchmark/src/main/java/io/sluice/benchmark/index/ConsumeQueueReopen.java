package io.sluice.benchmark.index;

import io.sluice.benchmark.BenchFiles;
import io.sluice.format.ConsumeQueueType;
import io.sluice.store.index.ConsumeQueueTable;
import io.sluice.store.index.IndexSettings;
import io.sluice.store.index.LastStop;
import io.sluice.store.index.StoreTimeLookup;
import java.io.IOException;
import java.nio.file.Path;

/**
 * How long the consume-queue table takes to open a topic of many BatchCQ queues that each hold one slot (the shape
 * of a 10,000-partition topic at a restart), after a clean stop and after a crash. Each mode opens its own freshly
 * written queues, so neither finds the other's pages in the page cache: the figure is a restart's, whose files'
 * unused tails were never read. Not JMH: a cold open can only be measured once per set of files.
 *
 * <pre>
 *   java -cp benchmark/target/benchmarks.jar io.sluice.benchmark.index.ConsumeQueueReopen [queues]
 * </pre>
 */
public final class ConsumeQueueReopen {

    private ConsumeQueueReopen() {
    }

    public static void main(String[] args) throws IOException {
        int queues = args.length > 0 ? Integer.parseInt(args[0]) : 1_000;
        if (queues < 1 || queues > 65_535) {
            throw new IllegalArgumentException("queues must be in [1, 65535], was " + queues);
        }
        double cleanMs = reopenMs(queues, LastStop.CLEAN);
        double crashMs = reopenMs(queues, LastStop.CRASH);
        System.out.printf("open of %d one-slot BatchCQ queues: after a clean stop %.1f ms (%.3f ms a queue), "
                + "after a crash %.1f ms (%.3f ms a queue); crash / clean = %.1f%n", queues, cleanMs,
                cleanMs / queues, crashMs, crashMs / queues, crashMs / cleanMs);
    }

    private static double reopenMs(int queues, LastStop lastStop) throws IOException {
        Path root = BenchFiles.newRoot("sluice-bench-reopen");
        try {
            IndexSettings settings = IndexSettings.defaults(root);
            try (ConsumeQueueTable table = ConsumeQueueTable.open(settings, topic -> ConsumeQueueType.BATCH,
                    StoreTimeLookup.NONE)) {
                for (int queueId = 0; queueId < queues; queueId++) {
                    table.getOrCreate("ReopenTopic", queueId).append(0, 4, 1_000L * queueId, 500, 0, 1L);
                }
            }
            long startNs = System.nanoTime();
            try (ConsumeQueueTable table = ConsumeQueueTable.open(settings, topic -> ConsumeQueueType.BATCH,
                    StoreTimeLookup.NONE, lastStop)) {
                long elapsedNs = System.nanoTime() - startNs;
                long maxOffset = table.getOrCreate("ReopenTopic", queues - 1).maxOffset();
                if (maxOffset != 4) {
                    throw new IllegalStateException("queue " + (queues - 1) + " reopened with max offset "
                            + maxOffset + ", expected 4");
                }
                return elapsedNs / 1e6;
            }
        } finally {
            BenchFiles.deleteRecursively(root);
        }
    }
}
