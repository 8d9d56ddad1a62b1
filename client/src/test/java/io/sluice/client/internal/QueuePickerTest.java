package io.sluice.client.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.remoting.protocol.body.BrokerData;
import io.sluice.remoting.protocol.body.MessageQueue;
import io.sluice.remoting.protocol.body.QueueData;
import io.sluice.remoting.protocol.body.TopicRouteData;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

class QueuePickerTest {

    /** The pick per broker block is the pick of a plain scan over every queue from the round-robin position. */
    @Property(tries = 200)
    void shouldPickWhatAScanOfEveryQueueWouldPick(@ForAll long seed, @ForAll @IntRange(min = 1, max = 6) int brokers) {
        Random random = new Random(seed);
        List<BrokerData> brokerDatas = new ArrayList<>();
        List<QueueData> queueDatas = new ArrayList<>();
        List<String> isolated = new ArrayList<>();
        for (int i = 0; i < brokers; i++) {
            String name = "broker-" + i;
            brokerDatas.add(new BrokerData("C", name, Map.of(0L, TestRoutes.address(i)), false));
            int queues = 1 + random.nextInt(40);
            queueDatas.add(new QueueData(name, queues, queues, random.nextInt(4) == 0 ? 4 : 6, 0));
            if (random.nextBoolean()) {
                isolated.add(name);
            }
        }
        TopicRoute route = TopicRoute.of("T", TopicRouteData.of(brokerDatas, queueDatas));
        if (route.publishQueues().isEmpty()) {
            return;
        }
        FailedBrokers failed = new FailedBrokers(60_000, () -> 0L);
        isolated.forEach(failed::failed);
        String avoid = random.nextBoolean() ? null : "broker-" + random.nextInt(brokers);
        for (int round = 0; round < 50; round++) {
            int next = route.nextIndex() + 1;
            MessageQueue expected = scan(route.publishQueues(), next & Integer.MAX_VALUE, avoid, failed);
            assertEquals(expected, QueuePicker.pick(route, avoid, failed), "pick at round-robin position " + next);
        }
    }

    @Test
    void shouldKnowTheWritableQueuesOfATenThousandQueueTopicWithoutScanning() {
        TopicRoute route = TestRoutes.route("Big", 2, 10_000);
        assertEquals(20_000, route.publishQueues().size());
        assertEquals(2, route.publishBlocks());
        assertEquals(10_000, route.publishBlockStart(1));
        assertEquals(0, route.publishBlockOf(9_999));
        assertEquals(1, route.publishBlockOf(10_000));
        assertTrue(route.isPublishQueue(new MessageQueue("Big", "broker-1", 9_999)));
        assertFalse(route.isPublishQueue(new MessageQueue("Big", "broker-1", 10_000)));
        assertFalse(route.isPublishQueue(new MessageQueue("Big", "broker-9", 0)));
        assertFalse(route.isPublishQueue(new MessageQueue("Other", "broker-0", 0)));
        FailedBrokers failed = new FailedBrokers(60_000, () -> 0L);
        failed.failed("broker-0");
        for (int i = 0; i < 100; i++) {
            assertEquals("broker-1", QueuePicker.pick(route, null, failed).brokerName());
            assertEquals("broker-0", QueuePicker.pick(route, "broker-1", failed).brokerName(),
                    "an isolated broker is still better than the previous attempt's");
        }
    }

    /** The reference: the first acceptable queue from {@code start}, else the first not on the previous broker. */
    private static MessageQueue scan(List<MessageQueue> queues, int start, String avoid, FailedBrokers failed) {
        MessageQueue notPrevious = null;
        for (int i = 0; i < queues.size(); i++) {
            MessageQueue queue = queues.get((start + i) % queues.size());
            if (queue.brokerName().equals(avoid)) {
                continue;
            }
            if (!failed.isIsolated(queue.brokerName())) {
                return queue;
            }
            if (notPrevious == null) {
                notPrevious = queue;
            }
        }
        return notPrevious != null ? notPrevious : queues.get(start % queues.size());
    }
}
