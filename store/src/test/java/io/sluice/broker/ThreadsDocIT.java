package io.sluice.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.testing.Await;
import io.sluice.broker.testing.NamesrvAndBroker;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.TopicConfig;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.tools.admin.DefaultMQAdminExt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code distribution/src/docs/threads.md} lists every thread of the broker: with the unmodified Apache client
 * sending and consuming, under both flush policies, every live thread whose name starts with {@code sluice-} is in
 * the list, and once the broker is closed none of its loops (the threads run by an {@code AgentHost}) is left.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ThreadsDocIT {

    private static final Path THREADS_DOC = Path.of("..", "distribution", "src", "docs", "threads.md");
    private static final String TOPIC = "ThreadsDoc";
    private static final int MESSAGES = 20;
    /** The pipelined dispatcher's threads, which every broker runs. */
    private static final List<String> DISPATCH = List.of("sluice-dispatch-reader", "sluice-dispatch-parse-",
            "sluice-dispatch-writer");
    /** A broker's loops (threads run by an AgentHost): joined when the broker closes. */
    private static final List<String> LOOPS = List.of("sluice-dispatch", "sluice-flush-", "sluice-group-commit",
            "sluice-zero-fill", "sluice-log-cache-trim", "sluice-key-index", "sluice-delay-scheduler",
            "sluice-timer-wheel", "sluice-ha-");

    @TempDir
    Path dir;

    @Test
    void everyThreadOfAnAsyncFlushBrokerIsDocumented() throws Exception {
        Set<String> names = threadsWhileServing(dir.resolve("async"), Map.of("flushDiskType", "ASYNC_FLUSH"));
        assertTrue(names.contains("sluice-flush-async"), names::toString);
    }

    @Test
    void everyThreadOfASyncFlushBrokerIsDocumented() throws Exception {
        Set<String> names = threadsWhileServing(dir.resolve("sync"), Map.of("flushDiskType", "SYNC_FLUSH"));
        assertTrue(names.contains("sluice-group-commit") && names.contains("sluice-flush-deadline"),
                names::toString);
    }

    /** Runs a broker with traffic, checks its threads against the list, closes it; returns the names seen. */
    private Set<String> threadsWhileServing(Path root, Map<String, String> conf) throws Exception {
        String doc = Files.readString(THREADS_DOC, StandardCharsets.UTF_8);
        Set<Thread> before = Set.copyOf(Thread.getAllStackTraces().keySet());
        Set<String> names;
        List<Thread> loops;
        try (NamesrvAndBroker cluster = NamesrvAndBroker.start(root, conf)) {
            DefaultMQAdminExt admin = ApacheClients.admin(cluster.namesrvAddr());
            DefaultMQProducer producer = ApacheClients.producer(cluster.namesrvAddr(), "threads-doc-pg");
            DefaultMQPushConsumer consumer = ApacheClients.pushConsumer(cluster.namesrvAddr(), "threads-doc-g");
            try {
                admin.start();
                admin.createAndUpdateTopicConfig(cluster.brokerAddr(), new TopicConfig(TOPIC, 2, 2, 6));
                producer.start();
                for (int i = 0; i < MESSAGES; i++) {
                    assertEquals(SendStatus.SEND_OK, producer.send(new Message(TOPIC,
                            ("m" + i).getBytes(StandardCharsets.UTF_8))).getSendStatus());
                }
                ApacheClients.consumeCounting(consumer, TOPIC, new AtomicInteger(), MESSAGES);
                names = sluiceThreadsStartedSince(before);
                loops = Thread.getAllStackTraces().keySet().stream()
                        .filter(t -> !before.contains(t) && LOOPS.stream().anyMatch(t.getName()::startsWith))
                        .toList();
            } finally {
                consumer.shutdown();
                producer.shutdown();
                admin.shutdown();
            }
        }
        for (String name : names) {
            assertTrue(doc.contains("`" + name), () -> "thread " + name + " is not in " + THREADS_DOC);
        }
        for (String thread : DISPATCH) {
            assertTrue(names.contains(thread), () -> thread + " not among " + names);
        }
        assertTrue(loops.size() >= DISPATCH.size(), loops::toString);
        // The broker's close joined them; the deadline only bounds the test.
        Await.until("the broker's loops end with it", 10_000, () -> loops.stream().noneMatch(Thread::isAlive),
                () -> loops.stream().filter(Thread::isAlive).toList());
        return names;
    }

    /** Live threads named {@code sluice-...} that are not in {@code before}, without pool and thread numbers. */
    private static Set<String> sluiceThreadsStartedSince(Set<Thread> before) {
        Set<String> names = new TreeSet<>();
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            String name = t.getName();
            if (t.isAlive() && !before.contains(t) && name.startsWith("sluice-")) {
                names.add(name.replaceAll("(-\\d+)+$", "-"));
            }
        }
        return names;
    }
}
