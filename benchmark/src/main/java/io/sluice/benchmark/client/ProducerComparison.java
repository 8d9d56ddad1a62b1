package io.sluice.benchmark.client;

import io.sluice.benchmark.BenchFiles;
import io.sluice.broker.Broker;
import io.sluice.broker.BrokerMain;
import io.sluice.client.Admin;
import io.sluice.client.ConnectionSettings;
import io.sluice.client.Message;
import io.sluice.client.Producer;
import io.sluice.client.ProducerSettings;
import io.sluice.format.ConsumeQueueType;
import io.sluice.client.TopicSpec;
import io.sluice.namesrv.NameServer;
import io.sluice.namesrv.NamesrvSettings;
import io.sluice.remoting.protocol.body.BrokerData;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendCallback;
import org.apache.rocketmq.client.producer.SendResult;

/**
 * End-to-end producer throughput against one Sluice broker started in this JVM (standalone, with its name
 * server): the Sluice producer against the Apache {@code DefaultMQProducer}, both with auto-batch and asynchronous
 * sends to a 16-queue BatchCQ topic, for 1 KiB and 100 B bodies. A sending loop keeps at most a fixed number of
 * messages unacknowledged; each producer runs at each level of {@link #IN_FLIGHT_LEVELS} and is judged by its best
 * level, as a rate search would find (one fixed level says more about the level than about the producers). Prints
 * every run's rate and CPU per message (client threads, broker, rest of the JVM, machine: {@link CpuSplit}), the
 * ratios of each pair (Apache's over Sluice's) and the median client-CPU ratio.
 *
 * <p>After a warm-up of {@code warmupSeconds} at every size, every run gets a fresh broker (same JVM, so the
 * compiled code stays) on a fresh store under {@code storeDir}, deleted and waited out afterwards: a store holds one
 * run's messages only, so no sweep reaches the disk-full threshold and no run pays for another's writeback. Rounds
 * alternate which producer goes first.
 *
 * <pre>
 *   java -cp benchmark/target/benchmarks.jar io.sluice.benchmark.client.ProducerComparison \
 *        [seconds] [storeDir] [both|sluice|apache] [bodyBytes,...] [inFlight,...] [warmupSeconds] [rounds] \
 *        ["brokerKey=value;..."]
 * </pre>
 */
public final class ProducerComparison {
    /** Unacknowledged messages the sending loop allows, one run per level. */
    private static final int[] IN_FLIGHT_LEVELS = {2048, 8192, 32768};
    private static final int QUEUES = 16;
    private static final int DEFAULT_WARMUP_SECONDS = 30;
    private static final int WARMUP_IN_FLIGHT = 8192;
    /** Between runs: the window in which the machine must be busy for less than a tenth of one core. */
    private static final long QUIET_WINDOW_MS = 500;
    private static final long QUIET_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(30);

    private ProducerComparison() {
    }

    public static void main(String[] args) throws Exception {
        int seconds = args.length > 0 ? Integer.parseInt(args[0]) : 10;
        Path dir = args.length > 1 ? Path.of(args[1]) : Files.createTempDirectory("sluice-bench");
        String which = args.length > 2 ? args[2] : "both";
        int[] bodies = args.length > 3 ? ints(args[3]) : new int[] {1024, 100};
        int[] levels = args.length > 4 ? ints(args[4]) : IN_FLIGHT_LEVELS;
        int warmupSeconds = args.length > 5 ? Integer.parseInt(args[5]) : DEFAULT_WARMUP_SECONDS;
        int rounds = args.length > 6 ? Integer.parseInt(args[6]) : 1;
        List<String> brokerConfig = args.length > 7 ? List.of(args[7].split(";")) : List.of();
        boolean apacheToo = !which.equals("sluice");
        boolean sluiceToo = !which.equals("apache");
        // One long warm-up of both producers at every size, until the JIT has compiled both clients' and the
        // broker's paths; the compiled code stays for the measured runs. Without it the compiler threads take a
        // share of the CPU of short runs, a cost both producers share that narrows their ratio.
        withBroker(dir, brokerConfig, "warm-up", (namesrv, topic) -> {
            for (int bodyBytes : bodies) {
                if (apacheToo) {
                    runApache(namesrv, topic, bodyBytes, WARMUP_IN_FLIGHT, warmupSeconds, "warm-up");
                }
                if (sluiceToo) {
                    runSluice(namesrv, topic, bodyBytes, WARMUP_IN_FLIGHT, warmupSeconds, "warm-up");
                }
            }
        });
        System.out.printf("%-6s %10s %5s %14s %14s %7s %10s %10s%n", "body", "in flight", "round", "apache msg/s",
                "sluice msg/s", "ratio", "client cpu", "broker cpu");
        for (int bodyBytes : bodies) {
            double[] best = {Double.NaN, Double.NaN};
            List<Double> clientCpuRatios = new ArrayList<>();
            for (int inFlight : levels) {
                for (int round = 1; round <= rounds; round++) {
                    // Every run gets a fresh broker and store: a producer that follows another on the same
                    // store pays for the writeback of the first one's pages. Rounds alternate the order.
                    boolean apacheFirst = round % 2 == 1;
                    Run[] rate = {Run.NONE, Run.NONE};
                    for (int turn = 0; turn < 2; turn++) {
                        String run = bodyBytes + "-" + inFlight + "-" + round + "-" + turn;
                        if (apacheFirst == (turn == 0) && apacheToo) {
                            withBroker(dir, brokerConfig, run, (namesrv, topic) -> {
                                runApache(namesrv, topic, bodyBytes, inFlight, 2, "settle");
                                rate[0] = runApache(namesrv, topic, bodyBytes, inFlight, seconds, "apache");
                            });
                        } else if (apacheFirst != (turn == 0) && sluiceToo) {
                            withBroker(dir, brokerConfig, run, (namesrv, topic) -> {
                                runSluice(namesrv, topic, bodyBytes, inFlight, 2, "settle");
                                rate[1] = runSluice(namesrv, topic, bodyBytes, inFlight, seconds, "sluice");
                            });
                        }
                    }
                    for (int i = 0; i < 2; i++) {
                        best[i] = Double.isNaN(best[i]) ? rate[i].msgPerSec() : Math.max(best[i], rate[i].msgPerSec());
                    }
                    double clientCpuRatio = rate[0].clientNsPerMsg() / rate[1].clientNsPerMsg();
                    if (!Double.isNaN(clientCpuRatio)) {
                        clientCpuRatios.add(clientCpuRatio);
                    }
                    System.out.printf("%-6d %10d %5d %14.0f %14.0f %7.2f %10.2f %10.2f%n", bodyBytes, inFlight, round,
                            rate[0].msgPerSec(), rate[1].msgPerSec(), rate[1].msgPerSec() / rate[0].msgPerSec(),
                            clientCpuRatio, rate[0].brokerNsPerMsg() / rate[1].brokerNsPerMsg());
                }
            }
            System.out.printf("%-6d %10s %5s %14.0f %14.0f %7.2f %10.2f%n", bodyBytes, "best", "", best[0], best[1],
                    best[1] / best[0], median(clientCpuRatios));
        }
    }

    /** What runs against one broker: its name server address and a fresh 16-queue BatchCQ topic. */
    @FunctionalInterface
    private interface BrokerRun {
        void run(String namesrv, String topic) throws Exception;
    }

    /**
     * Starts a name server and a broker on a new store under {@code dir}, runs {@code run}, stops both, deletes the
     * store.
     */
    private static void withBroker(Path dir, List<String> extraConfig, String name, BrokerRun run) throws Exception {
        Path root = dir.resolve("run-" + name);
        int namesrvPort = freePort();
        List<String> lines = new ArrayList<>(List.of("namesrvAddr=127.0.0.1:" + namesrvPort,
                "listenPort=" + freePort(), "brokerIP1=127.0.0.1", "storePathRootDir=" + root));
        lines.addAll(extraConfig);
        lines.add("");
        Path conf = Files.writeString(dir.resolve("broker-" + name + ".conf"), String.join("\n", lines));
        NameServer nameServer = new NameServer(NamesrvSettings.defaults().withListen("127.0.0.1", namesrvPort));
        nameServer.start();
        try (nameServer; Broker broker = BrokerMain.startBroker(conf)) {
            String namesrv = "127.0.0.1:" + namesrvPort;
            String topic = "Bench_" + Long.toHexString(System.nanoTime());
            createTopic(namesrv, topic);
            run.run(namesrv, topic);
        } finally {
            BenchFiles.deleteRecursively(root);
            Files.deleteIfExists(conf);
            // A CommitLog segment is never unmapped explicitly (MappedSegment): its disk blocks come back only
            // when the GC collects the mapping. Without this the deleted stores of earlier runs kept their
            // blocks, and a sweep reached the next broker's disk-full threshold.
            System.gc();
            awaitQuietMachine();
        }
    }

    /**
     * Waits (at most {@link #QUIET_TIMEOUT_NS}) until the machine is nearly idle over a {@link #QUIET_WINDOW_MS}
     * window. After a run the JVM's reference handler unmaps the deleted store's segments (the GC found them
     * unreachable) and the kernel frees their pages: seconds of CPU that otherwise land in the next run's
     * first measurement.
     */
    private static void awaitQuietMachine() {
        long deadline = System.nanoTime() + QUIET_TIMEOUT_NS;
        while (System.nanoTime() - deadline < 0) {
            long busyBefore = CpuSplit.machineBusyNs();
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(QUIET_WINDOW_MS));
            long busyNs = CpuSplit.machineBusyNs() - busyBefore;
            if (busyNs <= TimeUnit.MILLISECONDS.toNanos(QUIET_WINDOW_MS) / 10) {
                return;
            }
        }
        System.out.println("  (machine still busy after " + TimeUnit.NANOSECONDS.toSeconds(QUIET_TIMEOUT_NS)
                + " s of waiting for quiet)");
    }

    private static Run runSluice(String namesrv, String topic, int bodyBytes, int inFlight, int seconds,
                                    String label) {
        ProducerSettings settings = ProducerSettings.builder(ConnectionSettings.of(namesrv)
                .withClientIp("127.0.0.1").withInstanceName("bench-" + System.nanoTime()))
                .autoBatch(true).producerGroup("bench_sluice").build();
        Semaphore permits = new Semaphore(inFlight);
        AtomicLong acked = new AtomicLong();
        AtomicLong failed = new AtomicLong();
        byte[] body = new byte[bodyBytes];
        // The same callback API as the Apache producer's loop below.
        Outcomes callback = new Outcomes(permits, acked, failed);
        try (Producer producer = Producer.start(settings)) {
            CpuSplit cpu = new CpuSplit();
            cpu.start();
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
            long start = System.nanoTime();
            while (System.nanoTime() - end < 0) {
                permits.acquireUninterruptibly();
                try {
                    producer.sendAsync(Message.of(topic, body), callback);
                } catch (RuntimeException e) {
                    failed.incrementAndGet();
                    permits.release();
                }
            }
            permits.acquireUninterruptibly(inFlight);
            return rate(label, acked.get(), failed.get(), start, cpu.stop());
        }
    }

    private static Run runApache(String namesrv, String topic, int bodyBytes, int inFlight, int seconds,
                                    String label) throws Exception {
        DefaultMQProducer producer = new DefaultMQProducer("bench_apache");
        producer.setNamesrvAddr(namesrv);
        producer.setInstanceName("bench-apache-" + System.nanoTime());
        producer.setAutoBatch(true);
        producer.start();
        Semaphore permits = new Semaphore(inFlight);
        AtomicLong acked = new AtomicLong();
        AtomicLong failed = new AtomicLong();
        byte[] body = new byte[bodyBytes];
        Outcomes callback = new Outcomes(permits, acked, failed);
        try {
            CpuSplit cpu = new CpuSplit();
            cpu.start();
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
            long start = System.nanoTime();
            while (System.nanoTime() - end < 0) {
                permits.acquireUninterruptibly();
                try {
                    producer.send(new org.apache.rocketmq.common.message.Message(topic, body), callback);
                } catch (RuntimeException e) {
                    failed.incrementAndGet();
                    permits.release();
                }
            }
            permits.acquireUninterruptibly(inFlight);
            return rate(label, acked.get(), failed.get(), start, cpu.stop());
        } finally {
            producer.shutdown();
        }
    }

    /** Counts each send's outcome and gives its permit back; a callback for both producers. */
    private record Outcomes(Semaphore permits, AtomicLong acked, AtomicLong failed)
            implements io.sluice.client.SendCallback, SendCallback {
        @Override
        public void onSuccess(io.sluice.client.SendResult result) {
            acked.incrementAndGet();
            permits.release();
        }

        @Override
        public void onSuccess(SendResult result) {
            acked.incrementAndGet();
            permits.release();
        }

        @Override
        public void onException(Throwable error) {
            failed.incrementAndGet();
            permits.release();
        }
    }

    private static Run rate(String label, long acked, long failed, long startNs, CpuSplit.Split cpu) {
        double seconds = (System.nanoTime() - startNs) / 1e9;
        System.out.printf("  %-7s %,d msg in %.1f s, %s%s%n", label, acked, seconds, cpu.perMessage(acked),
                failed > 0 ? ", " + failed + " sends failed" : "");
        double messages = Math.max(1, acked);
        return new Run(acked / seconds, cpu.clientNs() / messages, cpu.brokerNs() / messages);
    }

    /**
     * One measured run: its rate and the CPU per message of the producer's threads and of the broker's. The pair
     * line shows the producers' client-CPU ratio (Apache's over Sluice's) beside the throughput ratio: both
     * producers share the broker and the machine's two cores, so the throughput ratio is about
     * (Apache client + broker) over (Sluice client + broker), while the client-CPU ratio is what each producer
     * itself costs.
     */
    private record Run(double msgPerSec, double clientNsPerMsg, double brokerNsPerMsg) {
        static final Run NONE = new Run(Double.NaN, Double.NaN, Double.NaN);
    }

    private static double median(List<Double> values) {
        if (values.isEmpty()) {
            return Double.NaN;
        }
        List<Double> sorted = values.stream().sorted().toList();
        int middle = sorted.size() / 2;
        return sorted.size() % 2 == 1 ? sorted.get(middle) : (sorted.get(middle - 1) + sorted.get(middle)) / 2;
    }

    private static void createTopic(String namesrv, String topic) {
        try (Admin admin = Admin.start(ConnectionSettings.of(namesrv).withClientIp("127.0.0.1"))) {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (admin.clusterInfo().brokerAddrTable().values().stream()
                    .noneMatch(broker -> broker.brokerAddrs().containsKey(BrokerData.MASTER_ID))) {
                if (System.nanoTime() - deadline > 0) {
                    throw new IllegalStateException("the broker did not register within 60 s");
                }
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(100));
            }
            admin.createTopic(TopicSpec.of(topic, QUEUES).withQueueType(ConsumeQueueType.BATCH), "DefaultCluster");
        }
    }

    private static int[] ints(String commaSeparated) {
        return java.util.Arrays.stream(commaSeparated.split(",")).mapToInt(Integer::parseInt).toArray();
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }
}
