package io.sluice.client.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.remoting.protocol.body.BrokerData;
import io.sluice.remoting.protocol.body.MessageQueue;
import io.sluice.remoting.protocol.body.QueueData;
import io.sluice.remoting.protocol.body.TopicRouteData;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * What the client reads from a route, against a model written from the rules: a producer writes to the writable
 * queues of brokers that have a master, a consumer reads the readable queues of every broker, both ordered by
 * broker name then queue id; the provisional route of a missing topic caps each broker's queues.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class TopicRoutePropertyTest {

    /** One broker of a generated route: its permission, queue counts and whether its master is registered. */
    record Broker(String name, int perm, int readQueues, int writeQueues, boolean hasMaster, boolean hasSlave) {
    }

    @Provide
    Arbitrary<List<Broker>> brokers() {
        Arbitrary<Broker> broker = Combinators.combine(
                Arbitraries.of(0, 2, 4, 6), Arbitraries.integers().between(0, 12),
                Arbitraries.integers().between(0, 12), Arbitraries.of(true, true, false), Arbitraries.of(true, false))
                .as((perm, read, write, master, slave) -> new Broker("", perm, read, write, master, slave));
        return broker.list().ofMinSize(0).ofMaxSize(6).map(list -> {
            List<Broker> named = new ArrayList<>();
            for (int i = 0; i < list.size(); i++) {
                Broker b = list.get(i);
                // Names out of order on purpose: the route sorts by name.
                String name = "broker-" + (char) ('f' - i);
                named.add(new Broker(name, b.perm(), b.readQueues(), b.writeQueues(), b.hasMaster(),
                        b.hasSlave() || !b.hasMaster()));
            }
            return named;
        });
    }

    @Property(tries = 300)
    void publishAndSubscribeQueuesFollowPermissionsAndMasters(@ForAll("brokers") List<Broker> brokers,
                                                              @ForAll @IntRange(min = 1, max = 16) int cap) {
        TopicRouteData data = routeData(brokers);
        assertEquals(expectedQueues(brokers, Integer.MAX_VALUE, true), TopicRoute.of("T", data).publishQueues());
        assertEquals(expectedQueues(brokers, Integer.MAX_VALUE, false), TopicRoute.of("T", data).subscribeQueues());
        TopicRoute provisional = TopicRoute.fromDefaultTopic("New", data, cap);
        assertTrue(provisional.fromDefaultTopic());
        assertEquals(expectedQueues(brokers, cap, true).stream().map(q -> rename(q, "New")).toList(),
                provisional.publishQueues());
    }

    @Property(tries = 300)
    void aQueueIsAPublishQueueExactlyWhenItIsListed(@ForAll("brokers") List<Broker> brokers,
                                                    @ForAll @IntRange(min = -1, max = 14) int queueId) {
        TopicRoute route = TopicRoute.of("T", routeData(brokers));
        Set<MessageQueue> listed = new HashSet<>(route.publishQueues());
        for (Broker b : brokers) {
            MessageQueue queue = new MessageQueue("T", b.name(), queueId);
            assertEquals(listed.contains(queue), route.isPublishQueue(queue), queue.toString());
            assertFalse(route.isPublishQueue(new MessageQueue("Other", b.name(), queueId)), "another topic's");
        }
        assertFalse(route.isPublishQueue(new MessageQueue("T", "no-such-broker", 0)));
    }

    @Property(tries = 300)
    void everyPublishQueueLiesInItsBrokersBlock(@ForAll("brokers") List<Broker> brokers) {
        TopicRoute route = TopicRoute.of("T", routeData(brokers));
        List<MessageQueue> queues = route.publishQueues();
        Set<String> writers = new HashSet<>();
        queues.forEach(q -> writers.add(q.brokerName()));
        assertEquals(writers.size(), route.publishBlocks(), "one block per broker that takes sends");
        for (int i = 0; i < queues.size(); i++) {
            int block = route.publishBlockOf(i);
            MessageQueue first = queues.get(route.publishBlockStart(block));
            assertEquals(queues.get(i).brokerName(), first.brokerName(), "queue " + i);
            assertEquals(0, first.queueId(), "a block starts at queue 0");
            assertEquals(i - route.publishBlockStart(block), queues.get(i).queueId());
        }
    }

    @Test
    void addressesPreferTheMaster() {
        TopicRouteData data = TopicRouteData.of(List.of(
                new BrokerData("C", "a", Map.of(0L, "m:1", 1L, "s:1"), false),
                new BrokerData("C", "b", Map.of(2L, "s:2"), false)),
                List.of(new QueueData("a", 4, 4, 6, 0), new QueueData("b", 4, 4, 6, 0)));
        TopicRoute route = TopicRoute.of("T", data);
        assertEquals("m:1", route.masterAddress("a"));
        assertEquals("m:1", route.anyAddress("a"));
        assertNull(route.masterAddress("b"), "a broker whose master is gone");
        assertEquals("s:2", route.anyAddress("b"));
        assertNull(route.anyAddress("c"));
        assertEquals(Set.of("m:1", "s:1", "s:2"), new HashSet<>(route.allAddresses()));
        assertEquals(4, route.publishQueues().size(), "only a's queues take sends");
        assertEquals(8, route.subscribeQueues().size(), "b's queues are still read (from its slave)");
    }

    @Test
    void theRoundRobinCounterNeverGoesNegative() {
        TopicRoute route = TestRoutes.route("T", 2, 4);
        for (int i = 0; i < 1_000; i++) {
            assertTrue(route.nextIndex() >= 0);
        }
    }

    private static TopicRouteData routeData(List<Broker> brokers) {
        List<BrokerData> brokerDatas = new ArrayList<>();
        List<QueueData> queueDatas = new ArrayList<>();
        for (int i = 0; i < brokers.size(); i++) {
            Broker b = brokers.get(i);
            Map<Long, String> addresses = new LinkedHashMap<>();
            if (b.hasMaster()) {
                addresses.put(BrokerData.MASTER_ID, "10.0.0." + i + ":10911");
            }
            if (b.hasSlave()) {
                addresses.put(1L, "10.0.1." + i + ":10911");
            }
            brokerDatas.add(new BrokerData("C", b.name(), addresses, false));
            queueDatas.add(new QueueData(b.name(), b.readQueues(), b.writeQueues(), b.perm(), 0));
        }
        return TopicRouteData.of(brokerDatas, queueDatas);
    }

    /** The model: queues in broker-name order, ids from 0, capped per broker. */
    private static List<MessageQueue> expectedQueues(List<Broker> brokers, int cap, boolean publish) {
        TreeMap<String, Broker> byName = new TreeMap<>();
        brokers.forEach(b -> byName.put(b.name(), b));
        List<MessageQueue> expected = new ArrayList<>();
        for (Broker b : byName.values()) {
            boolean takes = publish ? (b.perm() & TopicRoute.PERM_WRITE) != 0 && b.hasMaster()
                    : (b.perm() & TopicRoute.PERM_READ) != 0;
            int count = Math.min(publish ? b.writeQueues() : b.readQueues(), cap);
            for (int id = 0; takes && id < count; id++) {
                expected.add(new MessageQueue("T", b.name(), id));
            }
        }
        return expected;
    }

    private static MessageQueue rename(MessageQueue queue, String topic) {
        return new MessageQueue(topic, queue.brokerName(), queue.queueId());
    }
}
