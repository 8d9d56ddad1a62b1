package io.sluice.broker.client;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.sluice.broker.testing.FakeConnection;
import io.sluice.remoting.protocol.LanguageCode;
import io.sluice.remoting.protocol.RequestCode;
import io.sluice.remoting.protocol.body.ConsumeFromWhere;
import io.sluice.remoting.protocol.body.ConsumeType;
import io.sluice.remoting.protocol.body.ConsumerData;
import io.sluice.remoting.protocol.body.MessageModel;
import io.sluice.remoting.protocol.body.SubscriptionData;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import org.agrona.concurrent.CachedEpochClock;

/**
 * The broker's client registry against a plain model under any sequence of heartbeats, unregistrations, closed
 * connections, passing time and expiry scans: members in join order, groups online exactly while they have a
 * member, subscriptions as the last heartbeat named them, and NOTIFY_CONSUMER_IDS_CHANGED sent to exactly the
 * remaining members of a CLUSTERING group that allows it whenever a member leaves.
 */
class ClientRegistryModelPropertyTest {

    private static final long TIMEOUT_MS = 1_000;
    private static final List<String> GROUPS = List.of("g1", "g2", "quiet");
    private static final int CONNECTIONS = 4;

    /** One step of the sequence. */
    sealed interface Op {
    }

    record Heartbeat(int connection, String group, MessageModel model, Set<String> topics) implements Op {
    }

    record Producer(int connection, String group) implements Op {
    }

    record Unregister(int connection, String group) implements Op {
    }

    record Close(int connection) implements Op {
    }

    record Advance(long ms) implements Op {
    }

    record Scan() implements Op {
    }

    /** What the registry should hold. */
    private static final class Model {
        final Map<String, LinkedHashMap<Integer, Long>> consumers = new TreeMap<>();
        final Map<String, MessageModel> models = new TreeMap<>();
        final Map<String, Set<String>> topics = new TreeMap<>();
        final Map<String, LinkedHashMap<Integer, Long>> producers = new TreeMap<>();
        final long[] notified = new long[CONNECTIONS];
        final boolean[] closed = new boolean[CONNECTIONS];

        void memberLeft(String group) {
            LinkedHashMap<Integer, Long> members = consumers.get(group);
            if (members.isEmpty()) {
                consumers.remove(group);
                topics.remove(group);
                return;
            }
            if (!group.equals("quiet") && models.get(group) == MessageModel.CLUSTERING) {
                members.keySet().stream().filter(c -> !closed[c]).forEach(c -> notified[c]++);
            }
        }

        void removeEverywhere(int connection) {
            for (String group : new ArrayList<>(consumers.keySet())) {
                if (consumers.get(group).remove(connection) != null) {
                    memberLeft(group);
                }
            }
            producers.values().forEach(members -> members.remove(connection));
            producers.values().removeIf(Map::isEmpty);
        }
    }

    @Property(tries = 300)
    void theRegistryAgreesWithTheModelAfterEveryStep(@ForAll("ops") List<Op> ops) {
        CachedEpochClock clock = new CachedEpochClock();
        clock.update(1_000_000);
        ClientRegistry registry = new ClientRegistry(TIMEOUT_MS, clock, group -> !group.equals("quiet"));
        FakeConnection[] connections = new FakeConnection[CONNECTIONS];
        for (int i = 0; i < CONNECTIONS; i++) {
            connections[i] = new FakeConnection(20_000 + i);
        }
        Model model = new Model();
        for (Op op : ops) {
            apply(op, registry, connections, clock, model);
            check(registry, connections, model, op);
        }
    }

    private static void apply(Op op, ClientRegistry registry, FakeConnection[] connections, CachedEpochClock clock,
                              Model model) {
        if (op instanceof Heartbeat h && !model.closed[h.connection()]) {
            LinkedHashMap<Integer, Long> members = model.consumers.computeIfAbsent(h.group(),
                    g -> new LinkedHashMap<>());
            boolean newMember = !members.containsKey(h.connection());
            boolean topicsChanged = !h.topics().equals(model.topics.getOrDefault(h.group(), Set.of()));
            ClientRegistry.ConsumerRegistration registration = registry.registerConsumer(connections[h.connection()],
                    "client-" + h.connection(), LanguageCode.JAVA, 479, consumerData(h));
            assertEquals(new ClientRegistry.ConsumerRegistration(newMember, topicsChanged), registration,
                    op.toString());
            members.put(h.connection(), clock.time());
            model.models.put(h.group(), h.model());
            model.topics.put(h.group(), h.topics());
        } else if (op instanceof Producer p && !model.closed[p.connection()]) {
            registry.registerProducer(connections[p.connection()], "client-" + p.connection(), LanguageCode.JAVA,
                    479, p.group());
            model.producers.computeIfAbsent(p.group(), g -> new LinkedHashMap<>()).put(p.connection(), clock.time());
        } else if (op instanceof Unregister u) {
            LinkedHashMap<Integer, Long> members = model.consumers.get(u.group());
            boolean member = members != null && members.remove(u.connection()) != null;
            assertEquals(member, registry.unregisterConsumer(u.group(), connections[u.connection()]), op.toString());
            if (member) {
                model.memberLeft(u.group());
            }
        } else if (op instanceof Close c && !model.closed[c.connection()]) {
            connections[c.connection()].close();
            model.closed[c.connection()] = true;
            registry.onClosed(connections[c.connection()]);
            model.removeEverywhere(c.connection());
        } else if (op instanceof Advance a) {
            clock.advance(a.ms());
        } else if (op instanceof Scan) {
            scan(registry, connections, clock, model);
        }
    }

    private static void scan(ClientRegistry registry, FakeConnection[] connections, CachedEpochClock clock,
                             Model model) {
        long deadlineMs = clock.time() - TIMEOUT_MS;
        int expired = 0;
        Set<Integer> toClose = new HashSet<>();
        for (String group : new ArrayList<>(model.consumers.keySet())) {
            LinkedHashMap<Integer, Long> members = model.consumers.get(group);
            List<Integer> gone = members.entrySet().stream().filter(e -> e.getValue() < deadlineMs)
                    .map(Map.Entry::getKey).toList();
            gone.forEach(members::remove);
            expired += gone.size();
            toClose.addAll(gone);
            if (!gone.isEmpty()) {
                model.memberLeft(group);
            }
        }
        for (LinkedHashMap<Integer, Long> members : model.producers.values()) {
            List<Integer> gone = members.entrySet().stream().filter(e -> e.getValue() < deadlineMs)
                    .map(Map.Entry::getKey).toList();
            gone.forEach(members::remove);
            expired += gone.size();
            toClose.addAll(gone);
        }
        model.producers.values().removeIf(Map::isEmpty);
        assertEquals(expired, registry.scanExpired(), "memberships expired");
        // The scan closes every expired connection before the transport reports any of the closes, so none of
        // them is notified about the others leaving.
        for (int connection : toClose) {
            assertEquals(false, connections[connection].isActive(), "the scan closed connection " + connection);
            model.closed[connection] = true;
        }
        // The transport tells the registry of each connection the scan closed, as it does for any close.
        for (int connection : toClose) {
            registry.onClosed(connections[connection]);
            model.removeEverywhere(connection);
        }
    }

    private static void check(ClientRegistry registry, FakeConnection[] connections, Model model, Op op) {
        assertEquals(model.consumers.keySet(), registry.consumerGroups(), "online consumer groups after " + op);
        assertEquals(model.producers.keySet(), registry.producerGroups(), "online producer groups after " + op);
        for (String group : GROUPS) {
            List<String> ids = new ArrayList<>();
            model.consumers.getOrDefault(group, new LinkedHashMap<>()).keySet().forEach(c -> ids.add("client-" + c));
            assertEquals(ids, registry.consumerIds(group), "members of " + group + " after " + op);
            assertEquals(model.consumers.containsKey(group), registry.isConsumerGroupOnline(group));
            Set<String> topics = model.consumers.containsKey(group) ? model.topics.get(group) : Set.of();
            for (String topic : List.of("A", "B", "C")) {
                assertEquals(topics.contains(topic), registry.subscription(group, topic).isPresent(),
                        group + " subscribes " + topic + " after " + op);
            }
            assertEquals(model.producers.getOrDefault(group, new LinkedHashMap<>()).size(),
                    registry.producerConnections(group).size(), "producers of " + group + " after " + op);
        }
        for (String topic : List.of("A", "B", "C")) {
            Set<String> subscribing = new TreeSet<>();
            model.consumers.keySet().stream().filter(g -> model.topics.get(g).contains(topic))
                    .forEach(subscribing::add);
            assertEquals(subscribing, registry.consumerGroupsSubscribing(topic));
        }
        for (int i = 0; i < CONNECTIONS; i++) {
            long sent = connections[i].onewaySent().stream()
                    .filter(r -> r.code() == RequestCode.NOTIFY_CONSUMER_IDS_CHANGED).count();
            assertEquals(model.notified[i], sent, "notifications to connection " + i + " after " + op);
        }
    }

    private static ConsumerData consumerData(Heartbeat h) {
        Set<SubscriptionData> subscriptions = new HashSet<>();
        for (String topic : h.topics()) {
            subscriptions.add(new SubscriptionData(topic, "*", Set.of(), Set.of(), 1, "TAG", false));
        }
        return new ConsumerData(h.group(), ConsumeType.CONSUME_PASSIVELY, h.model(),
                ConsumeFromWhere.CONSUME_FROM_LAST_OFFSET, subscriptions, false);
    }

    @Provide
    Arbitrary<List<Op>> ops() {
        Arbitrary<Integer> connection = Arbitraries.integers().between(0, CONNECTIONS - 1);
        Arbitrary<String> group = Arbitraries.of(GROUPS);
        Arbitrary<Op> heartbeat = Combinators.combine(connection, group,
                Arbitraries.of(MessageModel.CLUSTERING, MessageModel.CLUSTERING, MessageModel.BROADCASTING),
                Arbitraries.of("A", "B", "C").set().ofMaxSize(3)).as(Heartbeat::new);
        Arbitrary<Op> producer = Combinators.combine(connection, group).as(Producer::new);
        Arbitrary<Op> unregister = Combinators.combine(connection, group).as(Unregister::new);
        Arbitrary<Op> close = connection.map(Close::new);
        Arbitrary<Op> advance = Arbitraries.longs().between(1, 800).map(Advance::new);
        Arbitrary<Op> scan = Arbitraries.just(new Scan());
        return Arbitraries.frequencyOf(Tuple.of(6, heartbeat), Tuple.of(2, producer),
                Tuple.of(2, unregister), Tuple.of(1, close),
                Tuple.of(3, advance), Tuple.of(2, scan)).list().ofMaxSize(40);
    }
}
