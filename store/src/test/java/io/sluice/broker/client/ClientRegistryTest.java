package io.sluice.broker.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.broker.testing.FakeConnection;
import io.sluice.remoting.protocol.LanguageCode;
import io.sluice.remoting.protocol.RemotingCommand;
import io.sluice.remoting.protocol.RequestCode;
import io.sluice.remoting.protocol.body.ConsumeFromWhere;
import io.sluice.remoting.protocol.body.ConsumeType;
import io.sluice.remoting.protocol.body.ConsumerData;
import io.sluice.remoting.protocol.body.MessageModel;
import io.sluice.remoting.protocol.body.SubscriptionData;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.agrona.concurrent.CachedEpochClock;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class ClientRegistryTest {

    private final CachedEpochClock clock = new CachedEpochClock();
    private ClientRegistry registry;

    @BeforeEach
    void create() {
        clock.update(1_000_000);
        registry = new ClientRegistry(120_000, clock, group -> !group.equals("quiet"));
    }

    private static SubscriptionData sub(String topic, long subVersion) {
        return new SubscriptionData(topic, "*", Set.of(), Set.of(), subVersion, "TAG", false);
    }

    private static ConsumerData consumer(String group, MessageModel model, SubscriptionData... subs) {
        return new ConsumerData(group, ConsumeType.CONSUME_PASSIVELY, model, ConsumeFromWhere.CONSUME_FROM_LAST_OFFSET,
                Set.of(subs), false);
    }

    private ClientRegistry.ConsumerRegistration join(FakeConnection c, String clientId, ConsumerData data) {
        return registry.registerConsumer(c, clientId, LanguageCode.JAVA, 479, data);
    }

    private static long notifications(FakeConnection c, String group) {
        return c.onewaySent().stream().filter(r -> r.code() == RequestCode.NOTIFY_CONSUMER_IDS_CHANGED)
                .map(r -> r.extField("consumerGroup")).filter(group::equals).count();
    }

    @Test
    void shouldTrackMembersAndSubscriptions() {
        FakeConnection a = new FakeConnection(1001);
        ClientRegistry.ConsumerRegistration first = join(a, "ip@a", consumer("g", MessageModel.CLUSTERING,
                sub("T", 1), sub("%RETRY%g", 1)));
        assertTrue(first.newMember());
        assertTrue(first.subscriptionsChanged());

        ClientRegistry.ConsumerRegistration refresh = join(a, "ip@a", consumer("g", MessageModel.CLUSTERING,
                sub("T", 5), sub("%RETRY%g", 1)));
        assertFalse(refresh.changed(), "a newer subVersion of the same topics is no membership change");
        assertEquals(5, registry.subscription("g", "T").orElseThrow().subVersion());

        ClientRegistry.ConsumerRegistration older = join(a, "ip@a", consumer("g", MessageModel.CLUSTERING,
                sub("T", 2), sub("%RETRY%g", 1)));
        assertFalse(older.changed());
        assertEquals(5, registry.subscription("g", "T").orElseThrow().subVersion(), "older versions are ignored");

        ClientRegistry.ConsumerRegistration dropped = join(a, "ip@a", consumer("g", MessageModel.CLUSTERING,
                sub("%RETRY%g", 1)));
        assertTrue(dropped.subscriptionsChanged());
        assertEquals(Optional.empty(), registry.subscription("g", "T"));

        FakeConnection b = new FakeConnection(1002);
        assertTrue(join(b, "ip@b", consumer("g", MessageModel.CLUSTERING, sub("%RETRY%g", 1))).newMember());
        assertEquals(List.of("ip@a", "ip@b"), registry.consumerIds("g"));
        ConsumerGroupView view = registry.consumerGroup("g").orElseThrow();
        assertEquals(2, view.connections().size());
        assertEquals("127.0.0.1:1001", view.connections().get(0).clientAddr());
        assertEquals(ConsumeType.CONSUME_PASSIVELY, view.consumeType());
        assertEquals(Set.of("g"), registry.consumerGroups());
        assertEquals(Set.of("g"), registry.consumerGroupsSubscribing("%RETRY%g"));
    }

    @Test
    void shouldNotifyAllMembersOfClusteringGroups() {
        FakeConnection a = new FakeConnection(1001);
        FakeConnection b = new FakeConnection(1002);
        join(a, "ip@a", consumer("g", MessageModel.CLUSTERING, sub("T", 1)));
        join(b, "ip@b", consumer("g", MessageModel.CLUSTERING, sub("T", 1)));
        registry.notifyConsumerIdsChanged("g");
        assertEquals(1, notifications(a, "g"));
        assertEquals(1, notifications(b, "g"));
        RemotingCommand sent = a.onewaySent().get(0);
        assertEquals(RequestCode.NOTIFY_CONSUMER_IDS_CHANGED, sent.code());

        FakeConnection c = new FakeConnection(1003);
        join(c, "ip@c", consumer("bc", MessageModel.BROADCASTING, sub("T", 1)));
        registry.notifyConsumerIdsChanged("bc");
        assertEquals(0, notifications(c, "bc"), "broadcasting consumers do not rebalance");

        FakeConnection d = new FakeConnection(1004);
        join(d, "ip@d", consumer("quiet", MessageModel.CLUSTERING, sub("T", 1)));
        registry.notifyConsumerIdsChanged("quiet");
        assertEquals(0, notifications(d, "quiet"), "the group's config disables notifications");
    }

    @Test
    void shouldRemoveMemberOnUnregisterAndNotifyTheRest() {
        FakeConnection a = new FakeConnection(1001);
        FakeConnection b = new FakeConnection(1002);
        join(a, "ip@a", consumer("g", MessageModel.CLUSTERING, sub("T", 1)));
        join(b, "ip@b", consumer("g", MessageModel.CLUSTERING, sub("T", 1)));
        assertTrue(registry.unregisterConsumer("g", a));
        assertFalse(registry.unregisterConsumer("g", a));
        assertEquals(List.of("ip@b"), registry.consumerIds("g"));
        assertEquals(1, notifications(b, "g"));
        assertEquals(0, notifications(a, "g"));
        assertTrue(registry.unregisterConsumer("g", b));
        assertFalse(registry.isConsumerGroupOnline("g"));
        assertEquals(List.of(), registry.consumerIds("g"));
        assertEquals(Optional.empty(), registry.subscription("g", "T"));
    }

    @Test
    void shouldRemoveClosedConnectionsFromEveryGroup() {
        FakeConnection a = new FakeConnection(1001);
        FakeConnection b = new FakeConnection(1002);
        join(a, "ip@a", consumer("g", MessageModel.CLUSTERING, sub("T", 1)));
        join(b, "ip@b", consumer("g", MessageModel.CLUSTERING, sub("T", 1)));
        registry.registerProducer(a, "ip@a", LanguageCode.JAVA, 479, "pg");
        registry.registerProducer(a, "ip@a", LanguageCode.JAVA, 479, "CLIENT_INNER_PRODUCER");
        assertEquals(Set.of("CLIENT_INNER_PRODUCER", "pg"), registry.producerGroups());
        a.close();
        registry.onClosed(a);
        assertEquals(List.of("ip@b"), registry.consumerIds("g"));
        assertEquals(1, notifications(b, "g"));
        assertEquals(Set.of(), registry.producerGroups());
    }

    @Test
    void shouldExpireSilentMembersAndCloseTheirConnections() {
        FakeConnection a = new FakeConnection(1001);
        FakeConnection b = new FakeConnection(1002);
        join(a, "ip@a", consumer("g", MessageModel.CLUSTERING, sub("T", 1)));
        registry.registerProducer(a, "ip@a", LanguageCode.JAVA, 479, "pg");
        clock.advance(60_000);
        join(b, "ip@b", consumer("g", MessageModel.CLUSTERING, sub("T", 1)));
        assertEquals(0, registry.scanExpired());
        clock.advance(60_001);
        assertEquals(2, registry.scanExpired(), "a's consumer and producer memberships");
        assertFalse(a.isActive());
        assertTrue(b.isActive());
        assertEquals(List.of("ip@b"), registry.consumerIds("g"));
        assertEquals(1, notifications(b, "g"));
        assertEquals(List.of(), registry.producerConnections("pg"));
    }
}
