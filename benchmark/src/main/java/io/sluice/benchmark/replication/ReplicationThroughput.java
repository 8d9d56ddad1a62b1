package io.sluice.benchmark.replication;

import io.sluice.benchmark.BenchFiles;
import io.sluice.broker.Broker;
import io.sluice.broker.config.BrokerSettings;
import io.sluice.broker.topic.TopicUpdate;
import io.sluice.namesrv.NameServer;
import io.sluice.namesrv.NamesrvSettings;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendCallback;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.message.Message;

/**
 * SYNC_MASTER against ASYNC_MASTER throughput from one producer: an embedded name server, a master and a slave
 * on loopback (stores in {@code /dev/shm} when it exists; a topic of 8 queues), one Apache producer sending 1 KiB
 * messages asynchronously with at most {@code inflight} unanswered; messages acknowledged SEND_OK per second, after a
 * warm-up, alternating the roles {@code rounds} times so that both see the same machine load.
 *
 * <p>Usage: {@code ReplicationThroughput [rounds=2] [seconds=10] [inflight=256]}.
 */
public final class ReplicationThroughput {

    private static final String TOPIC = "ReplicationThroughput";
    private static final int BODY_BYTES = 1024;
    private static final long WARMUP_MS = 3_000;

    private ReplicationThroughput() {
    }

    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 2;
        int seconds = args.length > 1 ? Integer.parseInt(args[1]) : 10;
        int inflight = args.length > 2 ? Integer.parseInt(args[2]) : 256;
        for (int round = 1; round <= rounds; round++) {
            for (String role : new String[] {"ASYNC_MASTER", "SYNC_MASTER"}) {
                double rate = run(role, seconds, inflight);
                System.out.printf("round %d %-12s %,10.0f msg/s%n", round, role, rate);
            }
        }
    }

    private static double run(String role, int seconds, int inflight) throws Exception {
        Path root = BenchFiles.newRoot("sluice-replication-bench");
        NameServer namesrv = new NameServer(NamesrvSettings.defaults().withListen("127.0.0.1", 0));
        namesrv.start();
        String namesrvAddr = "127.0.0.1:" + namesrv.port();
        Broker master = start(namesrvAddr, root.resolve("master"), "0", role);
        Broker slave = start(namesrvAddr, root.resolve("slave"), "1", "SLAVE");
        DefaultMQProducer producer = new DefaultMQProducer("bench-pg");
        producer.setNamesrvAddr(namesrvAddr);
        producer.setInstanceName("bench-producer-" + role);
        producer.setSendMsgTimeout(10_000);
        try {
            master.topics().createOrUpdate(new TopicUpdate(TOPIC, 8, 8, 6, null, 0, false, null)).join();
            producer.start();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (master.haServer().connectedSlaves() == 0 && System.nanoTime() < deadline) {
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10));
            }
            Semaphore window = new Semaphore(inflight);
            AtomicLong ok = new AtomicLong();
            AtomicLong other = new AtomicLong();
            byte[] body = new byte[BODY_BYTES];
            SendCallback callback = new SendCallback() {
                @Override
                public void onSuccess(SendResult result) {
                    (result.getSendStatus() == SendStatus.SEND_OK ? ok : other).incrementAndGet();
                    window.release();
                }

                @Override
                public void onException(Throwable e) {
                    if (other.getAndIncrement() == 0) {
                        System.out.println("  first failed send: " + e);
                    }
                    window.release();
                }
            };
            long measureFrom = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(WARMUP_MS);
            long end = measureFrom + TimeUnit.SECONDS.toNanos(seconds);
            long okAtStart = -1;
            while (System.nanoTime() < end) {
                if (okAtStart < 0 && System.nanoTime() >= measureFrom) {
                    okAtStart = ok.get();
                }
                window.acquire();
                producer.send(new Message(TOPIC, body), callback);
            }
            long measured = ok.get() - okAtStart;
            window.acquire(inflight);
            if (other.get() > 0) {
                System.out.printf("  %s: %d sends not SEND_OK%n", role, other.get());
            }
            return measured / (double) seconds;
        } finally {
            producer.shutdown();
            slave.close();
            master.close();
            namesrv.close();
            BenchFiles.deleteRecursively(root);
        }
    }

    private static Broker start(String namesrvAddr, Path dir, String brokerId, String role) throws Exception {
        Map<String, String> conf = new LinkedHashMap<>();
        conf.put("namesrvAddr", namesrvAddr);
        conf.put("brokerName", "bench-a");
        conf.put("brokerId", brokerId);
        conf.put("brokerRole", role);
        conf.put("listenPort", "0");
        conf.put("haListenPort", "0");
        conf.put("brokerIP1", "127.0.0.1");
        conf.put("storePathRootDir", dir.toString());
        conf.put("mappedFileSizeCommitLog", Integer.toString(256 * 1024 * 1024));
        BrokerSettings.Builder settings = BrokerSettings.builder();
        conf.forEach(settings::setText);
        Broker broker = new Broker(settings.build());
        broker.start();
        return broker;
    }
}
