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
    /** How long {@link #stop} waits for each sender thread, and then for the asynchronous sends in flight. */
    private static final long STOP_TIMEOUT_MS = 15_000;
    /** What {@link #verify(String)}'s waits may take together. */
    private static final long VERIFY_BUDGET_MS = 210_000;

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

    /**
     * Stops sending and waits for the sender threads to end and the asynchronous sends in flight to be answered (the
     * client answers each within its send timeout); fails naming what is left.
     */
    void stop() throws InterruptedException {
        running = false;
        for (Thread thread : threads) {
            thread.join(STOP_TIMEOUT_MS);
            assertTrue(!thread.isAlive(), () -> thread.getName() + " still runs after " + STOP_TIMEOUT_MS + " ms:"
                    + stackOf(thread));
        }
        assertTrue(window.tryAcquire(ASYNC_WINDOW, STOP_TIMEOUT_MS, TimeUnit.MILLISECONDS),
                () -> (ASYNC_WINDOW - window.availablePermits()) + " asynchronous sends still in flight after "
                        + STOP_TIMEOUT_MS + " ms");
        window.release(ASYNC_WINDOW);
    }

    private static String stackOf(Thread thread) {
        StringBuilder text = new StringBuilder();
        for (StackTraceElement frame : thread.getStackTrace()) {
            text.append("\n\tat ").append(frame);
        }
        return text.toString();
    }

    /**
     * Reads every queue of the topic from its first offset through the name server's routes and checks: each
     * acknowledged key is there, no key is there twice, and as many messages were read as the queues hold. Waits up
     * to 60 s for the route, 30 s for the queues' offsets and 120 s for the read-back.
     */
    void verify(String namesrv) throws Exception {
        verify(namesrv, new Steps(VERIFY_BUDGET_MS));
    }

    /** As {@link #verify(String)}, each wait a step of {@code steps} (bounded by their budget too). */
    void verify(String namesrv, Steps steps) throws Exception {
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
            String[] routeFailure = {""};
            steps.until("the topic's route on the name server", 60_000, () -> {
                try {
                    route.add(consumer.fetchMessageQueues(topic));
                    return true;
                } catch (MQClientException e) {
                    routeFailure[0] = e.getErrorMessage();
                    return false;
                }
            }, () -> topic + ": " + routeFailure[0]);
            Collection<MessageQueue> queues = route.get(0);
            Map<MessageQueue, Long> maxOffsets = new HashMap<>();
            String[] seekFailure = {""};
            consumer.assign(queues);
            // A client's first request to a broker restarted at a known address can fail on a connection it
            // opened before the restart; the offsets are read again until every queue answers.
            steps.until("every queue's offsets readable", 30_000,
                    () -> seekAll(admin, consumer, queues, maxOffsets, seekFailure), () -> seekFailure[0]);
            long expected = maxOffsets.values().stream().mapToLong(Long::longValue).sum();
            // A key stored twice sits at two queue positions; the consumer may deliver one position twice (its
            // first pulls race the seeks), so positions are counted, not deliveries.
            Map<String, Set<String>> positionsByKey = new HashMap<>();
            Map<Integer, Set<Long>> offsetsByQueue = new HashMap<>();
            Set<String> changed = new HashSet<>();
            int[] positions = {0};
            steps.until("every stored message read back", 120_000, () -> {
                for (MessageExt message : consumer.poll(500)) {
                    if (offsetsByQueue.computeIfAbsent(message.getQueueId(), id -> new HashSet<>())
                            .add(message.getQueueOffset())) {
                        positions[0]++;
                    }
                    positionsByKey.computeIfAbsent(message.getKeys(), key -> new HashSet<>())
                            .add(message.getQueueId() + "@" + message.getQueueOffset());
                    if (!new String(message.getBody(), StandardCharsets.UTF_8).equals(message.getKeys())) {
                        changed.add(message.getKeys());
                    }
                }
                return positions[0] >= expected;
            }, () -> positions[0] + " of " + expected + " positions; by queue: "
                    + readBack(maxOffsets, offsetsByQueue));
            List<String> doubled = positionsByKey.entrySet().stream().filter(e -> e.getValue().size() > 1)
                    .map(Map.Entry::getKey).toList();
            assertEquals(List.of(), doubled, "keys stored twice");
            assertEquals(Set.of(), changed, "keys whose stored body is not the one sent");
            List<String> lost = acked.stream().filter(key -> !positionsByKey.containsKey(key)).toList();
            assertEquals(List.of(), lost, "acknowledged keys lost");
            assertEquals(expected, positions[0], "queue positions read");
        } finally {
            consumer.shutdown();
            admin.shutdown();
        }
    }

    /**
     * Per queue: the positions read of those its max offset says it holds, and the first one not read (the one a
     * stalled read-back waits for).
     */
    private static String readBack(Map<MessageQueue, Long> maxOffsets, Map<Integer, Set<Long>> offsetsByQueue) {
        StringBuilder text = new StringBuilder();
        maxOffsets.forEach((queue, maxOffset) -> {
            Set<Long> read = offsetsByQueue.getOrDefault(queue.getQueueId(), Set.of());
            long firstMissing = 0;
            while (read.contains(firstMissing)) {
                firstMissing++;
            }
            text.append(queue.getBrokerName()).append('/').append(queue.getQueueId()).append(": ").append(read.size())
                    .append(" of ").append(maxOffset);
            if (firstMissing < maxOffset) {
                text.append(" (first unread offset ").append(firstMissing).append(')');
            }
            text.append("; ");
        });
        return text.toString();
    }

    /**
     * Notes each queue's max offset in {@code maxOffsets} and seeks each to its first offset; false on a failure,
     * whose message goes to {@code failure[0]}.
     */
    private static boolean seekAll(DefaultMQAdminExt admin, DefaultLitePullConsumer consumer,
            Collection<MessageQueue> queues, Map<MessageQueue, Long> maxOffsets, String[] failure) {
        try {
            for (MessageQueue queue : queues) {
                maxOffsets.put(queue, admin.maxOffset(queue));
                consumer.seekToBegin(queue);
            }
            return true;
        } catch (MQClientException e) {
            failure[0] = e.getErrorMessage();
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
