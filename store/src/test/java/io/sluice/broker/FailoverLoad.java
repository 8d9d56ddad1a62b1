package io.sluice.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.testing.Await;
import io.sluice.namesrv.NameServer;
import io.sluice.namesrv.NamesrvSettings;
import io.sluice.namesrv.controller.ControllerSettings;
import java.io.IOException;
import java.io.Writer;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;
import org.apache.rocketmq.client.consumer.DefaultLitePullConsumer;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendCallback;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.TopicConfig;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageDecoder;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.common.message.MessageQueue;
import org.apache.rocketmq.tools.admin.DefaultMQAdminExt;

/**
 * SYNC_MASTER load from the unmodified Apache producer across failovers: one thread sends synchronously, one keeps
 * a window of asynchronous sends; every message has its own key, and a send is acknowledged only when answered
 * SEND_OK (the producer does not retry: a failed send is followed by a new message, so a key never appears twice
 * unless the broker stored it twice). {@link #verify} reads every queue from the start with the Apache lite pull
 * consumer and checks each acknowledged key once, no key twice, every body as sent (the body is the key).
 */
final class FailoverLoad implements AutoCloseable {

    private static final int ASYNC_WINDOW = 32;

    private final String topic;
    private final DefaultMQProducer producer;
    private final Set<String> acked = ConcurrentHashMap.newKeySet();
    /** When each acknowledgement came (System.nanoTime) and which broker stored it (the msgId's store host). */
    private final ConcurrentSkipListMap<Long, String> ackNanos = new ConcurrentSkipListMap<>();
    private final AtomicLong failed = new AtomicLong();
    private final AtomicLong sequence = new AtomicLong();
    private final Semaphore window = new Semaphore(ASYNC_WINDOW);
    private final List<Thread> threads = new ArrayList<>();
    /** After a failed send the senders pause until then (System.nanoTime), so failures do not spin a core. */
    private volatile long pauseUntilNanos;
    private volatile boolean running;

    FailoverLoad(String namesrv, String topic) throws Exception {
        this.topic = topic;
        producer = ApacheClients.producer(namesrv, ApacheClients.instance("failover-pg"));
        producer.setRetryTimesWhenSendFailed(0);
        producer.setRetryTimesWhenSendAsyncFailed(0);
        producer.setSendMsgTimeout(3_000);
        // Route changes are picked up within a second (the default poll is 30 s).
        producer.setPollNameServerInterval(1_000);
        producer.start();
    }

    void start() {
        running = true;
        threads.add(new Thread(this::sendSync, "failover-sync-sender"));
        threads.add(new Thread(this::sendAsync, "failover-async-sender"));
        threads.forEach(Thread::start);
    }

    private void sendSync() {
        while (running) {
            String key = "sync-" + sequence.incrementAndGet();
            try {
                record(key, producer.send(message(key)));
            } catch (Exception e) {
                onFailure();
            }
            pauseAfterFailure();
        }
    }

    private void sendAsync() {
        while (running) {
            pauseAfterFailure();
            try {
                if (!window.tryAcquire(100, TimeUnit.MILLISECONDS)) {
                    continue;
                }
            } catch (InterruptedException e) {
                return;
            }
            String key = "async-" + sequence.incrementAndGet();
            try {
                producer.send(message(key), new SendCallback() {
                    @Override
                    public void onSuccess(SendResult result) {
                        record(key, result);
                        window.release();
                    }

                    @Override
                    public void onException(Throwable e) {
                        onFailure();
                        window.release();
                    }
                });
            } catch (Exception e) {
                onFailure();
                window.release();
            }
        }
    }

    private void onFailure() {
        failed.incrementAndGet();
        pauseUntilNanos = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(20);
    }

    /** A route to a dead broker fails at once: the senders pause a little after a failure. */
    private void pauseAfterFailure() {
        long leftNanos = pauseUntilNanos - System.nanoTime();
        if (leftNanos > 0) {
            LockSupport.parkNanos(leftNanos);
        }
    }

    private void record(String key, SendResult result) {
        if (result.getSendStatus() == SendStatus.SEND_OK) {
            acked.add(key);
            ackNanos.put(System.nanoTime(), storeHost(result));
        } else {
            onFailure();
        }
    }

    /** {@code ip:port} of the broker that stored the message, from its offset message id. */
    private static String storeHost(SendResult result) {
        try {
            InetSocketAddress host = (InetSocketAddress) MessageDecoder.decodeMessageId(result.getOffsetMsgId())
                    .getAddress();
            return host.getAddress().getHostAddress() + ":" + host.getPort();
        } catch (UnknownHostException | RuntimeException e) {
            return "unknown";
        }
    }

    private Message message(String key) {
        Message message = new Message(topic, "tag", key.getBytes(StandardCharsets.UTF_8));
        message.setKeys(key);
        return message;
    }

    int ackedCount() {
        return acked.size();
    }

    long failedCount() {
        return failed.get();
    }

    /** Waits for {@code more} acknowledgements beyond the current count. */
    void awaitMoreAcks(int more, long timeoutMs) {
        int target = acked.size() + more;
        Await.until(more + " more acknowledged sends", timeoutMs, () -> acked.size() >= target, acked::size);
    }

    /**
     * Waits for the first acknowledgement after {@code sinceNanos} of a message stored by another broker than
     * {@code killedAddr} (acknowledgements of the killed broker may still arrive after the kill), and returns when
     * it came (System.nanoTime).
     */
    long awaitFirstAckAfter(long sinceNanos, String killedAddr, long timeoutMs) {
        return awaitFirstAckAfter(sinceNanos, killedAddr, timeoutMs, () -> "");
    }

    /** As {@link #awaitFirstAckAfter(long, String, long)}; a timeout also reports {@code cluster}'s state. */
    long awaitFirstAckAfter(long sinceNanos, String killedAddr, long timeoutMs, Supplier<?> cluster) {
        Await.until("a send acknowledged by another broker after the kill", timeoutMs,
                () -> firstAckAfter(sinceNanos, killedAddr) > 0,
                () -> failed.get() + " failed sends so far" + cluster.get());
        return firstAckAfter(sinceNanos, killedAddr);
    }

    private long firstAckAfter(long sinceNanos, String killedAddr) {
        for (Map.Entry<Long, String> ack : ackNanos.tailMap(sinceNanos).entrySet()) {
            if (!ack.getValue().equals(killedAddr)) {
                return ack.getKey();
            }
        }
        return -1;
    }

    /** Stops sending and waits for the asynchronous sends in flight. */
    void stop() throws InterruptedException {
        running = false;
        for (Thread thread : threads) {
            thread.join(30_000);
        }
        assertTrue(window.tryAcquire(ASYNC_WINDOW, 30, TimeUnit.SECONDS), "asynchronous sends still in flight");
        window.release(ASYNC_WINDOW);
    }

    /**
     * Reads every queue of the topic from its first offset through the name server's routes and checks: each
     * acknowledged key is there, no key is there twice, and as many messages were read as the queues hold.
     */
    void verify(String namesrv) throws Exception {
        DefaultMQAdminExt admin = ApacheClients.admin(namesrv);
        DefaultLitePullConsumer consumer = new DefaultLitePullConsumer(ApacheClients.instance("failover-verify"));
        consumer.setNamesrvAddr(namesrv);
        // As the producer's: a route read during a failover's name-server flap is refreshed within a second, not
        // the client's default 30 s, so pulls do not keep going to a broker that stepped down.
        consumer.setPollNameServerInterval(1_000);
        consumer.setInstanceName(ApacheClients.instance("verify"));
        consumer.setAutoCommit(false);
        try {
            admin.start();
            consumer.start();
            // A master frozen and woken can register as master once more and then unregister, which takes the
            // broker name's route off the name server until the new master's next periodic registration
            // (registerBrokerIntervalMs): the data is intact, the route comes back.
            List<Collection<MessageQueue>> route = new ArrayList<>();
            Await.until("the topic's route on the name server", 60_000, () -> {
                try {
                    route.add(consumer.fetchMessageQueues(topic));
                    return true;
                } catch (MQClientException e) {
                    return false;
                }
            }, () -> topic);
            Collection<MessageQueue> queues = route.get(0);
            long[] totals = new long[1];
            consumer.assign(queues);
            // A client's first request to a broker restarted at a known address can fail on a connection it
            // opened before the restart; the offsets are read again until every queue answers.
            Await.until("every queue's offsets readable", 30_000, () -> seekAll(admin, consumer, queues, totals),
                    () -> topic);
            long total = totals[0];
            // A key stored twice sits at two queue positions; the consumer may deliver one position twice (its
            // first pulls race the seeks), so positions are counted, not deliveries.
            Map<String, Set<String>> positionsByKey = new HashMap<>();
            Set<String> positions = new HashSet<>();
            Set<String> changed = new HashSet<>();
            long expected = total;
            Await.until("every stored message read back", 120_000, () -> {
                for (MessageExt message : consumer.poll(500)) {
                    String position = message.getQueueId() + "@" + message.getQueueOffset();
                    positions.add(position);
                    positionsByKey.computeIfAbsent(message.getKeys(), key -> new HashSet<>()).add(position);
                    if (!new String(message.getBody(), StandardCharsets.UTF_8).equals(message.getKeys())) {
                        changed.add(message.getKeys());
                    }
                }
                return positions.size() >= expected;
            }, () -> positions.size() + " of " + expected);
            List<String> doubled = positionsByKey.entrySet().stream().filter(e -> e.getValue().size() > 1)
                    .map(Map.Entry::getKey).toList();
            assertEquals(List.of(), doubled, "keys stored twice");
            assertEquals(Set.of(), changed, "keys whose stored body is not the one sent");
            List<String> lost = acked.stream().filter(key -> !positionsByKey.containsKey(key)).toList();
            assertEquals(List.of(), lost, "acknowledged keys lost");
            assertEquals(expected, positions.size(), "queue positions read");
        } finally {
            consumer.shutdown();
            admin.shutdown();
        }
    }

    /** Sums the queues' max offsets into {@code total[0]} and seeks each to its first offset; false on a failure. */
    private static boolean seekAll(DefaultMQAdminExt admin, DefaultLitePullConsumer consumer,
            Collection<MessageQueue> queues, long[] total) {
        try {
            long sum = 0;
            for (MessageQueue queue : queues) {
                sum += admin.maxOffset(queue);
                consumer.seekToBegin(queue);
            }
            total[0] = sum;
            return true;
        } catch (MQClientException e) {
            return false;
        }
    }

    /** Creates {@code topic} with 4 queues on the broker at {@code masterAddr}. */
    static void createTopic(String namesrvAddr, String topic, String masterAddr) throws Exception {
        DefaultMQAdminExt admin = ApacheClients.admin(namesrvAddr);
        try {
            admin.start();
            admin.createAndUpdateTopicConfig(masterAddr, new TopicConfig(topic, 4, 4, 6));
        } finally {
            admin.shutdown();
        }
    }

    /** A started name server on a free loopback port embedding a single controller that stores under {@code dir}. */
    static NameServer namesrvWithController(Path dir) throws IOException {
        NameServer namesrv = new NameServer(NamesrvSettings.defaults().withListen("127.0.0.1", 0),
                Optional.of(ControllerSettings.single("127.0.0.1:" + freePort(), dir)));
        namesrv.start();
        return namesrv;
    }

    /** Whether the broker at {@code brokerAddr} has {@code topic} (false also when it does not answer). */
    static boolean hasTopic(String namesrvAddr, String brokerAddr, String topic) {
        DefaultMQAdminExt admin = ApacheClients.admin(namesrvAddr);
        try {
            admin.start();
            return admin.examineTopicConfig(brokerAddr, topic) != null;
        } catch (Exception e) {
            return false;
        } finally {
            admin.shutdown();
        }
    }

    /**
     * Writes {@code <dir>/<name>.conf}: a controller-mode broker of group {@code broker-a} (SYNC_MASTER when
     * elected) on free loopback ports, storing under {@code <dir>/<name>}. Returns its listen port.
     */
    static int writeBrokerConf(Path dir, String name, String namesrvAddr, String controllerAddr)
            throws IOException {
        int port = freePort();
        Properties conf = new Properties();
        conf.setProperty("namesrvAddr", namesrvAddr);
        conf.setProperty("enableControllerMode", "true");
        conf.setProperty("controllerAddr", controllerAddr);
        conf.setProperty("brokerName", "broker-a");
        conf.setProperty("brokerRole", "SYNC_MASTER");
        conf.setProperty("listenPort", Integer.toString(port));
        conf.setProperty("haListenPort", Integer.toString(freePort()));
        conf.setProperty("brokerIP1", "127.0.0.1");
        conf.setProperty("storePathRootDir", dir.resolve(name).toString());
        conf.setProperty("mappedFileSizeCommitLog", Integer.toString(16 * 1024 * 1024));
        conf.setProperty("mappedFileSizeConsumeQueue", Integer.toString(20 * 10_000));
        conf.setProperty("mapperFileSizeBatchConsumeQueue", Integer.toString(46 * 10_000));
        try (Writer out = Files.newBufferedWriter(dir.resolve(name + ".conf"), StandardCharsets.UTF_8)) {
            conf.store(out, "controller-mode test broker " + name);
        }
        return port;
    }

    static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    @Override
    public void close() throws InterruptedException {
        if (running) {
            stop();
        }
        producer.shutdown();
    }
}
