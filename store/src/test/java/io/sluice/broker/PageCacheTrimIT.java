package io.sluice.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.sluice.broker.testing.NamesrvAndBroker;
import io.sluice.testing.Await;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
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
 * {@code commitLogPageCacheMaxBytes} with the unmodified Apache client, on 1 MiB CommitLog files and a 1 MiB window:
 * the broker hands the pages of all but the newest bytes back to the kernel as the producer writes, and a consumer
 * group that then reads from the first offset gets every message intact, the old ones from the disk.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class PageCacheTrimIT {

    private static final String TOPIC = "Trimmed";
    private static final String GROUP = "trimmed-cg";
    private static final int SEGMENT_BYTES = 1 << 20;
    private static final int BODY_BYTES = 2 * 1024;
    private static final int MESSAGES = 4_000;
    private static final int BATCH = 20;
    private static final Map<String, String> CONF = Map.of("mappedFileSizeCommitLog", Integer.toString(SEGMENT_BYTES),
            "maxMessageSize", Integer.toString(64 * 1024), "commitLogPageCacheMaxBytes",
            Integer.toString(SEGMENT_BYTES), "flushIntervalCommitLog", "100");

    @TempDir
    Path dir;

    @Test
    void oldPagesAreReleasedAndAGroupReadingFromTheStartGetsEveryMessage() throws Exception {
        assumeTrue(System.getProperty("os.name").startsWith("Linux") && System.getProperty("os.arch").contains("64"),
                "the page cache is released on 64-bit Linux only");
        assumeFalse("tmpfs".equals(Files.getFileStore(dir).type()), "tmpfs pages cannot be dropped");
        try (NamesrvAndBroker c = NamesrvAndBroker.start(dir, CONF)) {
            DefaultMQAdminExt admin = ApacheClients.admin(c.namesrvAddr());
            DefaultMQProducer producer = ApacheClients.producer(c.namesrvAddr(), "trimmed-pg");
            Set<Integer> received = ConcurrentHashMap.newKeySet();
            Set<Integer> corrupt = ConcurrentHashMap.newKeySet();
            DefaultMQPushConsumer consumer = ApacheClients.pushConsumer(c.namesrvAddr(), GROUP);
            try {
                admin.start();
                admin.createAndUpdateTopicConfig(c.brokerAddr(), new TopicConfig(TOPIC, 2, 2, 6));
                producer.start();
                for (int n = 0; n < MESSAGES; n += BATCH) {
                    List<Message> batch = new ArrayList<>(BATCH);
                    for (int i = n; i < n + BATCH; i++) {
                        batch.add(new Message(TOPIC, NumberedMessages.body(i, BODY_BYTES)));
                    }
                    assertEquals(SendStatus.SEND_OK, producer.send(batch).getSendStatus());
                }
                long written = (long) MESSAGES * BODY_BYTES;
                Await.until("the broker released all but its newest pages", 30_000,
                        () -> c.broker().store().stats().pageCacheReleasedBytes() >= written - 3L * SEGMENT_BYTES,
                        () -> c.broker().store().stats().pageCacheReleasedBytes());

                consumer.subscribe(TOPIC, "*");
                consumer.registerMessageListener(NumberedMessages.recording(received, corrupt));
                consumer.start();
                Await.until("the group read every message", 60_000, () -> received.size() == MESSAGES,
                        received::size);
                assertEquals(Set.of(), corrupt);
                assertTrue(c.broker().store().stats().pageCacheReleasedBytes() <= written + SEGMENT_BYTES);
            } finally {
                consumer.shutdown();
                producer.shutdown();
                admin.shutdown();
            }
        }
    }

}
