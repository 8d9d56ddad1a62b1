package io.sluice.namesrv.route;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.remoting.protocol.body.BrokerData;
import io.sluice.remoting.protocol.body.ClusterInfo;
import io.sluice.remoting.protocol.body.DataVersion;
import io.sluice.remoting.protocol.body.QueueData;
import io.sluice.remoting.protocol.body.TopicConfigSerializeWrapper;
import io.sluice.remoting.protocol.body.TopicConfigWire;
import io.sluice.remoting.protocol.body.TopicRouteData;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class RouteTableTest {

    private static final String CLUSTER = "DefaultCluster";
    private static final String MASTER_ADDR = "10.0.0.1:10911";
    private static final String SLAVE_ADDR = "10.0.0.2:10911";

    private final AtomicLong clock = new AtomicLong(1_000_000);
    private final RouteTable table = new RouteTable(120_000, clock::get);

    private static TopicConfigSerializeWrapper topics(long counter, TopicConfigWire... configs) {
        Map<String, TopicConfigWire> table = new LinkedHashMap<>();
        for (TopicConfigWire config : configs) {
            table.put(config.topicName(), config);
        }
        return TopicConfigSerializeWrapper.of(new DataVersion(0, counter, counter), table);
    }

    private static TopicConfigSerializeWrapper fullTopics(long counter) {
        return topics(counter, TopicConfigWire.of("TBW102", 8, 7), TopicConfigWire.of("T1", 4, 6));
    }

    private static BrokerRegistration registration(String broker, long id, String addr,
                                                   TopicConfigSerializeWrapper topics, Object connection) {
        return new BrokerRegistration(CLUSTER, addr, broker, id, addr.replace(":10911", ":10912"), 0, false, topics,
                List.of(), connection);
    }

    private RegisterResult registerMaster(TopicConfigSerializeWrapper topics) {
        return table.register(registration("broker-a", 0, MASTER_ADDR, topics, "conn-a"));
    }

    @Test
    void shouldRouteATopicOfARegisteredMaster() {
        RegisterResult result = registerMaster(fullTopics(1));

        assertEquals(RegisterResult.Status.ACCEPTED, result.status());
        assertEquals(Optional.empty(), result.master());
        TopicRouteData route = table.routeOf("T1").orElseThrow();
        assertEquals(List.of(new BrokerData(CLUSTER, "broker-a", Map.of(0L, MASTER_ADDR), false)),
                route.brokerDatas());
        assertEquals(List.of(new QueueData("broker-a", 4, 4, 6, 0)), route.queueDatas());
        assertEquals(Map.of(), route.filterServerTable());
        assertEquals(new QueueData("broker-a", 8, 8, 7, 0), table.routeOf("TBW102").orElseThrow().queueDatas().get(0));
    }

    @Test
    void shouldHaveNoRouteForAnUnknownTopic() {
        registerMaster(fullTopics(1));

        assertEquals(Optional.empty(), table.routeOf("nope"));
    }

    @Test
    void shouldRejectAnIncrementalRegistrationBeforeTheFirstFullOneWithoutChangingAnything() {
        RegisterResult result = registerMaster(topics(1, TopicConfigWire.of("T1", 4, 6)));

        assertEquals(RegisterResult.Status.REJECTED_INCREMENTAL_BEFORE_FULL, result.status());
        assertFalse(result.accepted());
        assertEquals(new ClusterInfo(Map.of(), Map.of()), table.clusterInfo());
        assertEquals(Set.of(), table.allTopics());
        assertEquals(0, table.liveBrokerCount());
    }

    @Test
    void shouldAddTopicsFromIncrementalRegistrationsAfterTheFullOne() {
        registerMaster(fullTopics(1));

        RegisterResult result = registerMaster(topics(2, TopicConfigWire.of("T2", 2, 6)));

        assertTrue(result.accepted());
        assertEquals(Set.of("TBW102", "T1", "T2"), table.allTopics());
        assertEquals(2, table.routeOf("T2").orElseThrow().queueDatas().get(0).readQueueNums());
    }

    @Test
    void shouldKeepTopicsMissingFromALaterFullRegistration() {
        registerMaster(fullTopics(1));

        registerMaster(topics(2, TopicConfigWire.of("TBW102", 8, 7), TopicConfigWire.of("T9", 1, 6)));

        assertEquals(Set.of("TBW102", "T1", "T9"), table.allTopics());
    }

    @Test
    void shouldIgnoreChangedQueueDataWhenTheDataVersionIsUnchanged() {
        registerMaster(fullTopics(1));

        registerMaster(topics(1, TopicConfigWire.of("TBW102", 8, 7), TopicConfigWire.of("T1", 16, 6)));

        assertEquals(4, table.routeOf("T1").orElseThrow().queueDatas().get(0).readQueueNums());
    }

    @Test
    void shouldUpdateQueueDataWhenTheDataVersionChanges() {
        registerMaster(fullTopics(1));

        registerMaster(topics(2, TopicConfigWire.of("TBW102", 8, 7), TopicConfigWire.of("T1", 16, 6)));

        assertEquals(16, table.routeOf("T1").orElseThrow().queueDatas().get(0).readQueueNums());
    }

    @Test
    void shouldMoveAnAddressThatReRegistersUnderAnotherId() {
        registerMaster(fullTopics(1));

        table.register(registration("broker-a", 1, MASTER_ADDR, fullTopics(1), "conn-a"));

        BrokerData broker = table.clusterInfo().brokerAddrTable().get("broker-a");
        assertEquals(Map.of(1L, MASTER_ADDR), broker.brokerAddrs());
    }

    @Test
    void shouldTellASlaveItsLiveMasterAndNotTakeItsTopics() {
        registerMaster(fullTopics(1));

        RegisterResult result = table.register(registration("broker-a", 1, SLAVE_ADDR,
                topics(1, TopicConfigWire.of("TBW102", 8, 7), TopicConfigWire.of("SLAVE_ONLY", 4, 6)), "conn-s"));

        assertEquals(Optional.of(new RegisterResult.MasterAddress(MASTER_ADDR, "10.0.0.1:10912")), result.master());
        assertEquals(Map.of(0L, MASTER_ADDR, 1L, SLAVE_ADDR),
                table.routeOf("T1").orElseThrow().brokerDatas().get(0).brokerAddrs());
        assertEquals(Optional.empty(), table.routeOf("SLAVE_ONLY"));
    }

    @Test
    void shouldNotNameAMasterToASlaveWhenThereIsNone() {
        RegisterResult result = table.register(registration("broker-a", 1, SLAVE_ADDR, fullTopics(1), "conn-s"));

        assertTrue(result.accepted());
        assertEquals(Optional.empty(), result.master());
        assertEquals(Set.of(), table.allTopics());
    }

    @Test
    void shouldRegisterAnActingMasterPrimeSlavesTopicsReadOnly() {
        BrokerRegistration slave = new BrokerRegistration(CLUSTER, SLAVE_ADDR, "broker-a", 1, "", 0, true,
                fullTopics(1), List.of(), "conn-s");

        table.register(slave);

        assertEquals(6 & ~2, table.routeOf("T1").orElseThrow().queueDatas().get(0).perm());
    }

    @Test
    void shouldRemoveEverythingOfABrokerWhenItsLastAddressUnregisters() {
        registerMaster(fullTopics(1));

        assertTrue(table.unregister(CLUSTER, MASTER_ADDR, "broker-a", 0));

        assertEquals(Optional.empty(), table.routeOf("T1"));
        assertEquals(new ClusterInfo(Map.of(), Map.of()), table.clusterInfo());
        assertEquals(Set.of(), table.allTopics());
        assertEquals(0, table.liveBrokerCount());
    }

    @Test
    void shouldKeepTheRouteWhileASlaveRemains() {
        registerMaster(fullTopics(1));
        table.register(registration("broker-a", 1, SLAVE_ADDR, fullTopics(1), "conn-s"));

        table.unregister(CLUSTER, MASTER_ADDR, "broker-a", 0);

        TopicRouteData route = table.routeOf("T1").orElseThrow();
        assertEquals(Map.of(1L, SLAVE_ADDR), route.brokerDatas().get(0).brokerAddrs());
    }

    @Test
    void shouldIgnoreAnUnregisterThatDoesNotMatchTheRegisteredId() {
        registerMaster(fullTopics(1));

        assertFalse(table.unregister(CLUSTER, MASTER_ADDR, "broker-a", 3));
        assertFalse(table.unregister(CLUSTER, MASTER_ADDR, "broker-x", 0));

        assertTrue(table.routeOf("T1").isPresent());
    }

    private static BrokerRegistration registration(long id, String addr, int masterEpoch, Object connection) {
        return new BrokerRegistration(CLUSTER, addr, "broker-a", id, addr.replace(":10911", ":10912"), 0, false,
                masterEpoch, fullTopics(1), List.of(), connection);
    }

    private Map<Long, String> addrsOfT1() {
        return table.routeOf("T1").orElseThrow().brokerDatas().get(0).brokerAddrs();
    }

    @Test
    void shouldRefuseAMasterOfAnOlderEpochSoTheElectedMasterKeepsItsRoute() {
        table.register(registration(0, MASTER_ADDR, 1, "conn-a"));
        table.register(registration(1, SLAVE_ADDR, 1, "conn-s"));
        table.register(registration(0, SLAVE_ADDR, 2, "conn-s"));

        RegisterResult stale = table.register(registration(0, MASTER_ADDR, 1, "conn-a"));

        assertEquals(RegisterResult.Status.REJECTED_STALE_MASTER_EPOCH, stale.status());
        assertEquals(2, stale.knownMasterEpoch());
        assertEquals(Map.of(0L, SLAVE_ADDR), addrsOfT1());
        assertFalse(table.unregister(CLUSTER, MASTER_ADDR, "broker-a", 0), "the demoted master holds no id");
        assertEquals(Map.of(0L, SLAVE_ADDR), addrsOfT1());
        RegisterResult rejoined = table.register(registration(1, MASTER_ADDR, 2, "conn-a2"));
        assertEquals(Optional.of(new RegisterResult.MasterAddress(SLAVE_ADDR, "10.0.0.2:10912")), rejoined.master());
        assertEquals(Map.of(0L, SLAVE_ADDR, 1L, MASTER_ADDR), addrsOfT1());
    }

    @Test
    void shouldAcceptTheMasterAgainAtItsEpochAndANewMasterAtALaterOne() {
        table.register(registration(0, MASTER_ADDR, 3, "conn-a"));

        assertTrue(table.register(registration(0, MASTER_ADDR, 3, "conn-a")).accepted());
        assertTrue(table.register(registration(0, SLAVE_ADDR, 4, "conn-s")).accepted());

        assertEquals(Map.of(0L, SLAVE_ADDR), addrsOfT1());
        assertEquals(RegisterResult.Status.REJECTED_STALE_MASTER_EPOCH,
                table.register(registration(0, MASTER_ADDR, 3, "conn-a")).status());
    }

    @Test
    void shouldNeverRefuseARegistrationWithoutAnEpochOrASlaveForItsEpoch() {
        table.register(registration(0, SLAVE_ADDR, 2, "conn-s"));

        assertTrue(table.register(registration(1, "10.0.0.3:10911", 1, "conn-c")).accepted());
        assertTrue(table.register(registration(0, MASTER_ADDR, 0, "conn-a")).accepted(),
                "a broker outside controller mode takes the master id as it always did");

        assertEquals(Map.of(0L, MASTER_ADDR, 1L, "10.0.0.3:10911"), addrsOfT1());
    }

    @Test
    void shouldForgetTheMasterEpochWithTheBrokerName() {
        table.register(registration(0, SLAVE_ADDR, 7, "conn-s"));
        table.unregister(CLUSTER, SLAVE_ADDR, "broker-a", 0);

        assertTrue(table.register(registration(0, MASTER_ADDR, 1, "conn-a")).accepted(),
                "a controller whose epochs started again");
    }

    @Test
    void shouldKeepOtherBrokersTopicsWhenOneBrokerLeaves() {
        registerMaster(fullTopics(1));
        table.register(registration("broker-b", 0, "10.0.0.3:10911", fullTopics(1), "conn-b"));

        table.unregister(CLUSTER, MASTER_ADDR, "broker-a", 0);

        TopicRouteData route = table.routeOf("T1").orElseThrow();
        assertEquals(List.of("broker-b"), route.brokerDatas().stream().map(BrokerData::brokerName).toList());
        assertEquals(List.of("broker-b"), route.queueDatas().stream().map(QueueData::brokerName).toList());
        assertEquals(Map.of(CLUSTER, Set.of("broker-b")), table.clusterInfo().clusterAddrTable());
    }

    @Test
    void shouldRemoveTheBrokersOfAClosedConnectionOnly() {
        registerMaster(fullTopics(1));
        table.register(registration("broker-b", 0, "10.0.0.3:10911", topics(1,
                TopicConfigWire.of("TBW102", 8, 7), TopicConfigWire.of("T2", 4, 6)), "conn-b"));

        List<RemovedBroker> removed = table.removeConnection("conn-a");

        assertEquals(List.of(new RemovedBroker(CLUSTER, "broker-a", 0, MASTER_ADDR, "conn-a")), removed);
        assertEquals(Optional.empty(), table.routeOf("T1"));
        assertTrue(table.routeOf("T2").isPresent());
        assertEquals(List.of(), table.removeConnection("conn-unknown"));
    }

    @Test
    void shouldNotRemoveABrokerThatReRegisteredOnANewConnection() {
        registerMaster(fullTopics(1));
        table.register(registration("broker-a", 0, MASTER_ADDR, fullTopics(1), "conn-a2"));

        assertEquals(List.of(), table.removeConnection("conn-a"));

        assertTrue(table.routeOf("T1").isPresent());
    }

    @Test
    void shouldExpireABrokerOnlyAfterItsTimeoutHasPassed() {
        registerMaster(fullTopics(1));
        long registeredAt = clock.get();

        assertEquals(List.of(), table.expire(registeredAt + 120_000));
        List<RemovedBroker> expired = table.expire(registeredAt + 120_001);

        assertEquals(List.of(new RemovedBroker(CLUSTER, "broker-a", 0, MASTER_ADDR, "conn-a")), expired);
        assertEquals(Optional.empty(), table.routeOf("T1"));
    }

    @Test
    void shouldHonourTheBrokersOwnHeartbeatTimeout() {
        table.register(new BrokerRegistration(CLUSTER, MASTER_ADDR, "broker-a", 0, "", 10_000, false,
                fullTopics(1), List.of(), "conn-a"));

        assertEquals(1, table.expire(clock.get() + 10_001).size());
    }

    @Test
    void shouldExtendLivenessOnEveryRegistrationAndVersionQuery() {
        registerMaster(fullTopics(1));
        clock.addAndGet(100_000);
        registerMaster(fullTopics(1));
        clock.addAndGet(100_000);
        table.checkDataVersion(CLUSTER, MASTER_ADDR, new DataVersion(0, 1, 1));
        clock.addAndGet(100_000);
        assertTrue(table.refresh(CLUSTER, MASTER_ADDR));

        assertEquals(List.of(), table.expire(clock.get() + 120_000));
        assertFalse(table.refresh(CLUSTER, "10.9.9.9:1"));
    }

    @Test
    void shouldReportWhetherTheDataVersionChanged() {
        assertEquals(new DataVersionCheck(true, Optional.empty()),
                table.checkDataVersion(CLUSTER, MASTER_ADDR, DataVersion.ZERO));
        registerMaster(fullTopics(1));

        DataVersion stored = new DataVersion(0, 1, 1);
        assertEquals(new DataVersionCheck(false, Optional.of(stored)),
                table.checkDataVersion(CLUSTER, MASTER_ADDR, stored));
        assertEquals(new DataVersionCheck(true, Optional.of(stored)),
                table.checkDataVersion(CLUSTER, MASTER_ADDR, stored.next(5)));
    }

    @Test
    void shouldDeleteATopicEverywhereOrInOneCluster() {
        registerMaster(fullTopics(1));
        table.register(new BrokerRegistration("Other", "10.0.0.3:10911", "broker-b", 0, "", 0, false,
                fullTopics(1), List.of(), "conn-b"));

        assertTrue(table.deleteTopic("T1", "Other"));
        assertEquals(List.of("broker-a"),
                table.routeOf("T1").orElseThrow().queueDatas().stream().map(QueueData::brokerName).toList());
        assertFalse(table.deleteTopic("T1", "NoSuchCluster"));
        assertTrue(table.deleteTopic("T1", null));
        assertEquals(Optional.empty(), table.routeOf("T1"));
        assertFalse(table.deleteTopic("T1", null));
    }

    @Test
    void shouldRestoreADeletedTopicOnTheBrokersNextRegistration() {
        registerMaster(fullTopics(1));
        table.deleteTopic("T1", null);

        registerMaster(fullTopics(1));

        assertTrue(table.routeOf("T1").isPresent());
    }

    @Test
    void shouldListTheTopicsOfOneCluster() {
        registerMaster(fullTopics(1));
        table.register(new BrokerRegistration("Other", "10.0.0.3:10911", "broker-b", 0, "", 0, false,
                topics(1, TopicConfigWire.of("TBW102", 8, 7), TopicConfigWire.of("T2", 4, 6)), List.of(), "conn-b"));

        assertEquals(Set.of("TBW102", "T1"), table.topicsOfCluster(CLUSTER));
        assertEquals(Set.of("TBW102", "T2"), table.topicsOfCluster("Other"));
        assertEquals(Set.of(), table.topicsOfCluster("None"));
        assertEquals(Set.of("TBW102", "T1", "T2"), table.allTopics());
    }

    @Test
    void shouldDescribeTheClusters() {
        registerMaster(fullTopics(1));
        table.register(registration("broker-a", 1, SLAVE_ADDR, fullTopics(1), "conn-s"));
        table.register(new BrokerRegistration("Other", "10.0.0.3:10911", "broker-b", 0, "", 0, false,
                fullTopics(1), List.of(), "conn-b"));

        ClusterInfo info = table.clusterInfo();

        assertEquals(Map.of(CLUSTER, Set.of("broker-a"), "Other", Set.of("broker-b")), info.clusterAddrTable());
        assertEquals(Map.of(0L, MASTER_ADDR, 1L, SLAVE_ADDR), info.brokerAddrTable().get("broker-a").brokerAddrs());
        assertEquals("Other", info.brokerAddrTable().get("broker-b").cluster());
    }

    @Test
    void shouldPublishFilterServersInTheRoute() {
        table.register(new BrokerRegistration(CLUSTER, MASTER_ADDR, "broker-a", 0, "", 0, false, fullTopics(1),
                List.of("10.0.0.1:30000"), "conn-a"));

        assertEquals(Map.of(MASTER_ADDR, List.of("10.0.0.1:30000")),
                table.routeOf("T1").orElseThrow().filterServerTable());

        registerMaster(fullTopics(1));
        assertEquals(Map.of(), table.routeOf("T1").orElseThrow().filterServerTable());
    }

    @Test
    void shouldRejectInvalidRegistrationsAndSettings() {
        IllegalArgumentException blank = assertThrows(IllegalArgumentException.class,
                () -> registration(" ", 0, MASTER_ADDR, fullTopics(1), "c"));
        assertTrue(blank.getMessage().contains("brokerName"), blank.getMessage());
        assertThrows(IllegalArgumentException.class, () -> registration("b", -1, MASTER_ADDR, fullTopics(1), "c"));
        assertThrows(IllegalArgumentException.class, () -> new RouteTable(0, clock::get));
    }
}
