package io.sluice.namesrv.route;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.remoting.protocol.body.BrokerData;
import io.sluice.remoting.protocol.body.ClusterInfo;
import io.sluice.remoting.protocol.body.DataVersion;
import io.sluice.remoting.protocol.body.QueueData;
import io.sluice.remoting.protocol.body.TopicConfigSerializeWrapper;
import io.sluice.remoting.protocol.body.TopicConfigWire;
import io.sluice.remoting.protocol.body.TopicRouteData;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;

/**
 * Random sequences of registrations, unregistrations, closed connections, expiry scans and topic deletions,
 * checked step by step against a small model of what the route table must contain.
 */
class RouteTableModelTest {

    private static final List<String> BROKERS = List.of("broker-a", "broker-b", "broker-c");
    private static final List<String> TOPICS = List.of("T0", "T1", "T2", "T3");
    private static final long TIMEOUT_MS = 1_000;

    /** One step of a scenario. */
    sealed interface Op permits Register, Unregister, Close, Advance, Delete {
    }

    record Register(int broker, int id, int connection, Set<String> topics) implements Op {
    }

    record Unregister(int broker, int id) implements Op {
    }

    record Close(int broker, int id, int connection) implements Op {
    }

    record Advance(long elapsedMs) implements Op {
    }

    record Delete(String topic) implements Op {
    }

    @Provide
    Arbitrary<List<Op>> scenarios() {
        Arbitrary<Integer> broker = Arbitraries.integers().between(0, BROKERS.size() - 1);
        Arbitrary<Integer> id = Arbitraries.integers().between(0, 1);
        Arbitrary<Integer> connection = Arbitraries.integers().between(0, 1);
        Arbitrary<Op> register = Combinators.combine(broker, id, connection,
                Arbitraries.of(TOPICS).set().ofMinSize(1).ofMaxSize(3)).as(Register::new);
        Arbitrary<Op> unregister = Combinators.combine(broker, id).as(Unregister::new);
        Arbitrary<Op> close = Combinators.combine(broker, id, connection).as(Close::new);
        Arbitrary<Op> advance = Arbitraries.longs().between(0, 700).map(Advance::new);
        Arbitrary<Op> delete = Arbitraries.of(TOPICS).map(Delete::new);
        return Arbitraries.frequencyOf(
                Tuple.of(5, register), Tuple.of(1, unregister),
                Tuple.of(1, close), Tuple.of(2, advance),
                Tuple.of(1, delete)).list().ofMaxSize(40);
    }

    private static String cluster(int broker) {
        return broker == 2 ? "Other" : "Main";
    }

    private static String addr(int broker, int id) {
        return "10.0." + broker + "." + id + ":10911";
    }

    /** What the model knows about one registered address. */
    private record Registered(String connection, long lastUpdateMs) {
    }

    @Property(tries = 200)
    void routeTableMatchesTheModel(@ForAll("scenarios") List<Op> scenario) {
        AtomicLong clock = new AtomicLong(0);
        RouteTable table = new RouteTable(TIMEOUT_MS, clock::get);
        Map<List<Integer>, Registered> registered = new HashMap<>();
        Map<Integer, Set<String>> topicsByBroker = new HashMap<>();
        long version = 0;

        for (Op op : scenario) {
            if (op instanceof Register r) {
                version++;
                List<Integer> key = List.of(r.broker(), r.id());
                Map<String, TopicConfigWire> configs = new LinkedHashMap<>();
                r.topics().forEach(t -> configs.put(t, TopicConfigWire.of(t, 4, 6)));
                String connection = "conn-" + r.broker() + "-" + r.id() + "-" + r.connection();
                RegisterResult result = table.register(new BrokerRegistration(cluster(r.broker()),
                        addr(r.broker(), r.id()), BROKERS.get(r.broker()), r.id(), "", 0, false,
                        TopicConfigSerializeWrapper.of(new DataVersion(0, version, version), configs), List.of(),
                        connection));
                boolean expectAccepted = registered.containsKey(key) || r.topics().size() != 1;
                assertEquals(expectAccepted, result.accepted(), "acceptance of " + op);
                if (expectAccepted) {
                    registered.put(key, new Registered(connection, clock.get()));
                    if (r.id() == 0) {
                        topicsByBroker.computeIfAbsent(r.broker(), b -> new HashSet<>()).addAll(r.topics());
                    }
                }
            } else if (op instanceof Unregister u) {
                table.unregister(cluster(u.broker()), addr(u.broker(), u.id()), BROKERS.get(u.broker()), u.id());
                registered.remove(List.of(u.broker(), u.id()));
            } else if (op instanceof Close c) {
                String connection = "conn-" + c.broker() + "-" + c.id() + "-" + c.connection();
                table.removeConnection(connection);
                registered.values().removeIf(entry -> entry.connection().equals(connection));
            } else if (op instanceof Advance a) {
                clock.addAndGet(a.elapsedMs());
                table.expire(clock.get());
                registered.values().removeIf(entry -> entry.lastUpdateMs() + TIMEOUT_MS < clock.get());
            } else if (op instanceof Delete d) {
                table.deleteTopic(d.topic(), null);
                topicsByBroker.values().forEach(topics -> topics.remove(d.topic()));
            }
            Set<Integer> liveBrokers = registered.keySet().stream().map(k -> k.get(0)).collect(Collectors.toSet());
            topicsByBroker.keySet().retainAll(liveBrokers);
            check(table, registered, topicsByBroker);
        }
    }

    private static void check(RouteTable table, Map<List<Integer>, Registered> registered,
                              Map<Integer, Set<String>> topicsByBroker) {
        Map<String, BrokerData> expectedBrokers = new TreeMap<>();
        Map<String, Set<String>> expectedClusters = new TreeMap<>();
        for (List<Integer> key : registered.keySet()) {
            int broker = key.get(0);
            String name = BROKERS.get(broker);
            BrokerData before = expectedBrokers.get(name);
            Map<Long, String> addrs = new TreeMap<>(before == null ? Map.of() : before.brokerAddrs());
            addrs.put((long) key.get(1), addr(broker, key.get(1)));
            expectedBrokers.put(name, new BrokerData(cluster(broker), name, addrs, false));
            expectedClusters.computeIfAbsent(cluster(broker), c -> new TreeSet<>()).add(name);
        }
        assertEquals(new ClusterInfo(expectedBrokers, expectedClusters), table.clusterInfo());
        assertEquals(registered.size(), table.liveBrokerCount());

        Set<String> expectedTopics = new TreeSet<>();
        topicsByBroker.values().forEach(expectedTopics::addAll);
        assertEquals(expectedTopics, table.allTopics());
        for (String topic : TOPICS) {
            Optional<TopicRouteData> route = table.routeOf(topic);
            Set<String> hosts = topicsByBroker.entrySet().stream().filter(e -> e.getValue().contains(topic))
                    .map(e -> BROKERS.get(e.getKey())).collect(Collectors.toCollection(TreeSet::new));
            assertEquals(!hosts.isEmpty(), route.isPresent(), "route of " + topic);
            route.ifPresent(r -> {
                assertEquals(hosts, r.brokerDatas().stream().map(BrokerData::brokerName)
                        .collect(Collectors.toCollection(TreeSet::new)));
                assertEquals(hosts, r.queueDatas().stream().map(QueueData::brokerName)
                        .collect(Collectors.toCollection(TreeSet::new)));
                assertTrue(r.brokerDatas().stream().noneMatch(b -> b.brokerAddrs().isEmpty()));
            });
        }
    }
}
