package io.sluice.benchmark.client;

import io.sluice.broker.BrokerMain;
import io.sluice.client.Admin;
import io.sluice.client.ConnectionSettings;
import io.sluice.client.Message;
import io.sluice.client.Producer;
import io.sluice.client.ProducerSettings;
import io.sluice.client.QueueType;
import io.sluice.client.TopicSpec;
import io.sluice.remoting.protocol.body.BrokerData;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendCallback;
import org.apache.rocketmq.client.producer.SendResult;

/**
 * End-to-end producer throughput against one Sluice broker started in this JVM (standalone, with its name
 * server): the Sluice producer with auto-batch against the Apache {@code DefaultMQProducer} with auto-batch, both
 * sending asynchronously to a 16-queue BatchCQ topic, for 1 KiB and 100 B bodies. A sending loop keeps at most a
 * fixed number of messages unacknowledged; each producer runs at each level of {@link #IN_FLIGHT_LEVELS}, and the
 * comparison is of each producer's best level, i.e. the most it sustains, as a rate search would find. (At one
 * fixed level the ratio says more about the level than about the producers: at 8,192 unacknowledged 1 KiB
 * messages both producers wait on acknowledgements and the ratio was 1.0-1.4; Apache's producer was mostly at its
 * best from 2,048 to 16,384, ours kept gaining up to 32,768.) Prints every level and the best. The store keeps
 * everything sent: give {@code storeDir} room for about 12 runs of {@code seconds + 3} at the rates printed (a
 * 24 GiB tmpfs filled up at 15 s, and the broker then refused sends as disk-full, as it should).
 *
 * <pre>
 *   java -cp benchmark/target/benchmarks.jar io.sluice.benchmark.client.ProducerComparison \
 *        [seconds] [storeDir] [both|sluice|apache]
 * </pre>
 */
public final class ProducerComparison {
    /** Unacknowledged messages the sending loop allows, one run per level. */
    private static final int[] IN_FLIGHT_LEVELS = {2048, 8192, 32768};
    private static final int QUEUES = 16;

    private ProducerComparison() {
    }

    public static void main(String[] args) throws Exception {
        int seconds = args.length > 0 ? Integer.parseInt(args[0]) : 10;
        Path dir = args.length > 1 ? Path.of(args[1]) : Files.createTempDirectory("sluice-bench");
        String which = args.length > 2 ? args[2] : "both";
        int namesrvPort = freePort();
        int brokerPort = freePort();
        Path conf = Files.writeString(dir.resolve("broker.conf"), String.join("\n",
                "namesrvAddr=127.0.0.1:" + namesrvPort, "listenPort=" + brokerPort, "brokerIP1=127.0.0.1",
                "storePathRootDir=" + dir.resolve("store"), ""));
        try (BrokerMain.Running broker = BrokerMain.startStandalone(conf)) {
            String namesrv = "127.0.0.1:" + namesrvPort;
            String topic = "Bench_" + Long.toHexString(System.nanoTime());
            createTopic(namesrv, topic);
            System.out.printf("%-6s %10s %14s %14s %7s%n", "body", "in flight", "apache msg/s", "sluice msg/s",
                    "ratio");
            for (int bodyBytes : new int[] {1024, 100}) {
                double bestApache = Double.NaN;
                double bestSluice = Double.NaN;
                for (int inFlight : IN_FLIGHT_LEVELS) {
                    double apache = Double.NaN;
                    double sluice = Double.NaN;
                    if (!which.equals("sluice")) {
                        runApache(namesrv, topic, bodyBytes, inFlight, 3);
                        apache = runApache(namesrv, topic, bodyBytes, inFlight, seconds);
                        bestApache = Double.isNaN(bestApache) ? apache : Math.max(bestApache, apache);
                    }
                    if (!which.equals("apache")) {
                        runSluice(namesrv, topic, bodyBytes, inFlight, 3);
                        sluice = runSluice(namesrv, topic, bodyBytes, inFlight, seconds);
                        bestSluice = Double.isNaN(bestSluice) ? sluice : Math.max(bestSluice, sluice);
                    }
                    System.out.printf("%-6d %10d %14.0f %14.0f %7.2f%n", bodyBytes, inFlight, apache, sluice,
                            sluice / apache);
                }
                System.out.printf("%-6d %10s %14.0f %14.0f %7.2f%n", bodyBytes, "best", bestApache, bestSluice,
                        bestSluice / bestApache);
            }
        }
    }

    private static double runSluice(String namesrv, String topic, int bodyBytes, int inFlight, int seconds) {
        ProducerSettings settings = ProducerSettings.builder(ConnectionSettings.of(namesrv)
                .withClientIp("127.0.0.1").withInstanceName("bench-" + System.nanoTime()))
                .autoBatch(true).producerGroup("bench_sluice").build();
        Semaphore permits = new Semaphore(inFlight);
        AtomicLong acked = new AtomicLong();
        AtomicLong failed = new AtomicLong();
        byte[] body = new byte[bodyBytes];
        try (Producer producer = Producer.start(settings)) {
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
            long start = System.nanoTime();
            while (System.nanoTime() - end < 0) {
                permits.acquireUninterruptibly();
                producer.sendAsync(Message.of(topic, body)).whenComplete((result, error) -> {
                    (error == null ? acked : failed).incrementAndGet();
                    permits.release();
                });
            }
            permits.acquireUninterruptibly(inFlight);
            return rate(acked.get(), failed.get(), start);
        }
    }

    private static double runApache(String namesrv, String topic, int bodyBytes, int inFlight, int seconds)
            throws Exception {
        DefaultMQProducer producer = new DefaultMQProducer("bench_apache");
        producer.setNamesrvAddr(namesrv);
        producer.setInstanceName("bench-apache-" + System.nanoTime());
        producer.setAutoBatch(true);
        producer.start();
        Semaphore permits = new Semaphore(inFlight);
        AtomicLong acked = new AtomicLong();
        AtomicLong failed = new AtomicLong();
        byte[] body = new byte[bodyBytes];
        SendCallback callback = new SendCallback() {
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
        };
        try {
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
            return rate(acked.get(), failed.get(), start);
        } finally {
            producer.shutdown();
        }
    }

    private static double rate(long acked, long failed, long startNs) {
        if (failed > 0) {
            System.out.println("  (" + failed + " sends failed)");
        }
        return acked / ((System.nanoTime() - startNs) / 1e9);
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
            admin.createTopic(TopicSpec.of(topic, QUEUES).withQueueType(QueueType.BATCH_CQ), "DefaultCluster");
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }
}
