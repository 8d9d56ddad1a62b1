package io.sluice.broker.ha;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.broker.handler.TopicHandler;
import io.sluice.broker.meta.MetadataSettings;
import io.sluice.broker.meta.MetadataStore;
import io.sluice.broker.meta.SubscriptionGroupConfig;
import io.sluice.broker.meta.TopicConfig;
import io.sluice.broker.topic.TopicAnnouncer;
import io.sluice.broker.topic.TopicRegistry;
import io.sluice.broker.topic.TopicSettings;
import io.sluice.format.ConsumeQueueType;
import io.sluice.remoting.protocol.RequestCode;
import io.sluice.remoting.transport.ClientSettings;
import io.sluice.remoting.transport.RemotingClient;
import io.sluice.remoting.transport.RemotingServer;
import io.sluice.remoting.transport.RequestHandler;
import io.sluice.remoting.transport.ServerSettings;
import io.sluice.remoting.transport.SyncRequestHandler;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A slave's copy of its master's metadata, over a real connection to the calls a master serves: topics, groups and
 * consumer offsets arrive as the master has them (again after they change, and nothing is rewritten when nothing
 * changed); a topic unknown here is asked of the master for its queue type; without a master, syncs fail, counted.
 */
@Timeout(30)
class MasterMetadataSyncTest {

    @TempDir
    Path dir;

    private MetadataStore master;
    private MetadataStore slave;
    private RemotingServer server;
    private RemotingClient client;
    private final AtomicReference<Optional<String>> masterAddress = new AtomicReference<>(Optional.empty());
    private MasterMetadataSync sync;

    @BeforeEach
    void open() {
        master = MetadataStore.open(MetadataSettings.of(dir.resolve("master")));
        slave = MetadataStore.open(MetadataSettings.of(dir.resolve("slave")));
        server = new RemotingServer(ServerSettings.builder().bindAddress("127.0.0.1").port(0).build());
        TopicHandler topics = new TopicHandler(new TopicRegistry(master, new TopicSettings(false, 8),
                TopicAnnouncer.NONE), topic -> { });
        MetadataExport export = new MetadataExport(master);
        // The calls a master serves to its slaves, as the broker registers them.
        Map<Integer, SyncRequestHandler> masterCalls = Map.of(
                RequestCode.GET_ALL_TOPIC_CONFIG, topics::onGetAllTopicConfig,
                RequestCode.GET_TOPIC_CONFIG, topics::onGetTopicConfig,
                RequestCode.GET_ALL_SUBSCRIPTIONGROUP_CONFIG, export::onGetAllSubscriptionGroups,
                MetadataExport.GET_ALL_CONSUMER_OFFSET, export::onGetAllConsumerOffset);
        masterCalls.forEach((code, call) -> server.registerHandler(code, RequestHandler.sync(call)));
        server.start();
        client = new RemotingClient(ClientSettings.defaults());
        sync = new MasterMetadataSync(slave, client, masterAddress::get, 5_000);
    }

    @AfterEach
    void close() {
        client.close();
        server.close();
        slave.close();
        master.close();
    }

    @Test
    void topicsGroupsAndOffsetsArriveAsTheMasterHasThem() {
        master.putTopic(TopicConfig.of("orders", 4, ConsumeQueueType.BATCH));
        master.putTopic(TopicConfig.of("%RETRY%g1", 1, ConsumeQueueType.SIMPLE));
        master.putGroup(SubscriptionGroupConfig.builder("g1").notifyConsumerIdsChangedEnable(false).build());
        master.commitOffset("g1", "orders", 0, 17);
        master.commitOffset("g1", "orders", 3, 4);
        master.commitOffset("g2", "orders", 1, 99);
        masterAddress.set(Optional.of("127.0.0.1:" + server.port()));

        sync.syncAll();
        assertEquals(1, sync.syncCount());
        assertEquals(0, sync.failureCount());
        assertEquals(master.getTopic("orders"), slave.getTopic("orders"));
        assertEquals(master.getTopic("%RETRY%g1"), slave.getTopic("%RETRY%g1"));
        assertEquals(master.getGroup("g1"), slave.getGroup("g1"));
        assertEquals(17, slave.queryOffset("g1", "orders", 0));
        assertEquals(4, slave.queryOffset("g1", "orders", 3));
        assertEquals(99, slave.queryOffset("g2", "orders", 1));
        assertEquals(MetadataStore.NO_OFFSET, slave.queryOffset("g1", "orders", 1));

        master.commitOffset("g1", "orders", 0, 30);
        master.putTopic(TopicConfig.of("orders", 8, ConsumeQueueType.BATCH));
        sync.syncAll();
        assertEquals(30, slave.queryOffset("g1", "orders", 0), "a moved offset follows");
        assertEquals(8, slave.getTopic("orders").orElseThrow().writeQueueNums(), "a changed topic follows");
        assertEquals(2, sync.syncCount());
    }

    @Test
    void anUnknownTopicsQueueTypeIsAskedOfTheMasterAndKept() {
        master.putTopic(TopicConfig.of("batched", 2, ConsumeQueueType.BATCH));
        masterAddress.set(Optional.of("127.0.0.1:" + server.port()));
        assertEquals(ConsumeQueueType.BATCH, sync.queueTypeOf("batched"));
        assertTrue(slave.getTopic("batched").isPresent(), "stored here for the next records");
        assertEquals(ConsumeQueueType.SIMPLE, sync.queueTypeOf("nowhere"),
                "a topic the master does not know either is indexed as SIMPLE rather than skipped");
        assertTrue(slave.getTopic("nowhere").isEmpty());
    }

    @Test
    void withoutAKnownMasterEverySyncFailsAndIsCounted() {
        sync.syncAll();
        sync.syncAll();
        assertEquals(2, sync.failureCount());
        assertEquals(0, sync.syncCount());
        assertEquals(ConsumeQueueType.SIMPLE, sync.queueTypeOf("orders"));

        masterAddress.set(Optional.of("127.0.0.1:" + server.port()));
        sync.syncAll();
        assertEquals(1, sync.syncCount(), "syncs work again once the master is known");
    }
}
