package io.sluice.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.sluice.broker.testing.NamesrvAndBroker;
import io.sluice.testing.Await;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
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
 * A store keeps the CommitLog segment size it was created with, with the unmodified Apache client: restarted with
 * another {@code mappedFileSizeCommitLog} (as a store made before the 128 MiB default meets it), the broker serves
 * the old messages and appends new ones in files of the old size.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class SegmentSizeChangeIT {

    private static final String TOPIC = "Resized";
    private static final int CREATED_SEGMENT_BYTES = 1 << 20;
    private static final int BODY_BYTES = 2 * 1024;
    private static final int BATCH = 20;
    private static final int BEFORE = 2_000;
    private static final int AFTER = 1_000;

    @TempDir
    Path dir;

    @Test
    void aRestartWithAnotherSegmentSizeKeepsTheStoresSize() throws Exception {
        try (NamesrvAndBroker c = NamesrvAndBroker.start(dir, conf(CREATED_SEGMENT_BYTES))) {
            DefaultMQAdminExt admin = ApacheClients.admin(c.namesrvAddr());
            try {
                admin.start();
                admin.createAndUpdateTopicConfig(c.brokerAddr(), new TopicConfig(TOPIC, 2, 2, 6));
            } finally {
                admin.shutdown();
            }
            send(c, 0, BEFORE);
        }
        assertEquals(Set.of((long) CREATED_SEGMENT_BYTES), segmentSizes());

        try (NamesrvAndBroker c = NamesrvAndBroker.start(dir, conf(2 * CREATED_SEGMENT_BYTES))) {
            send(c, BEFORE, BEFORE + AFTER);
            Set<Integer> received = ConcurrentHashMap.newKeySet();
            Set<Integer> corrupt = ConcurrentHashMap.newKeySet();
            DefaultMQPushConsumer consumer = ApacheClients.pushConsumer(c.namesrvAddr(), "resized-cg");
            try {
                consumer.subscribe(TOPIC, "*");
                consumer.registerMessageListener(NumberedMessages.recording(received, corrupt));
                consumer.start();
                Await.until("the group read every message", 60_000, () -> received.size() == BEFORE + AFTER,
                        received::size);
            } finally {
                consumer.shutdown();
            }
            assertEquals(Set.of(), corrupt);
        }
        assertEquals(Set.of((long) CREATED_SEGMENT_BYTES), segmentSizes(), "every file, old and new");
    }

    private static Map<String, String> conf(int segmentBytes) {
        return Map.of("mappedFileSizeCommitLog", Integer.toString(segmentBytes),
                "maxMessageSize", Integer.toString(64 * 1024));
    }

    private static void send(NamesrvAndBroker c, int from, int to) throws Exception {
        DefaultMQProducer producer = ApacheClients.producer(c.namesrvAddr(), "resized-pg");
        try {
            producer.start();
            for (int n = from; n < to; n += BATCH) {
                List<Message> batch = new ArrayList<>(BATCH);
                for (int i = n; i < n + BATCH; i++) {
                    batch.add(new Message(TOPIC, NumberedMessages.body(i, BODY_BYTES)));
                }
                assertEquals(SendStatus.SEND_OK, producer.send(batch).getSendStatus());
            }
        } finally {
            producer.shutdown();
        }
    }

    private Set<Long> segmentSizes() throws IOException {
        try (Stream<Path> files = Files.list(dir.resolve("commitlog"))) {
            return files.filter(p -> p.getFileName().toString().matches("[0-9]{20}")).map(p -> {
                try {
                    return Files.size(p);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }).collect(Collectors.toSet());
        }
    }
}
