package io.sluice.broker.registry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.testing.Await;
import io.sluice.remoting.protocol.RemotingCommand;
import io.sluice.remoting.protocol.RequestCode;
import io.sluice.remoting.protocol.ResponseCode;
import io.sluice.remoting.protocol.body.BodyCodec;
import io.sluice.remoting.protocol.body.RegisterBrokerBody;
import io.sluice.remoting.protocol.body.TopicConfigWire;
import io.sluice.remoting.protocol.controller.ControllerWireDescriptor;
import io.sluice.remoting.transport.ClientSettings;
import io.sluice.remoting.transport.RemotingClient;
import io.sluice.remoting.transport.RemotingServer;
import io.sluice.remoting.transport.RequestHandler;
import io.sluice.remoting.transport.ServerSettings;
import io.sluice.broker.meta.TableVersion;
import io.sluice.broker.meta.TopicConfig;
import io.sluice.broker.meta.TopicTable;
import io.sluice.format.ConsumeQueueType;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class NameServerRegistrarTest {

    private final List<RemotingCommand> received = new CopyOnWriteArrayList<>();
    private final AtomicReference<Integer> answerCode = new AtomicReference<>(ResponseCode.SUCCESS);
    /** Headers of the fake name server's answers: where it says the group's master is. */
    private final AtomicReference<Map<String, String>> answerFields = new AtomicReference<>(Map.of());
    private RemotingServer fakeNameServer;
    private RemotingClient client;
    private ScheduledExecutorService scheduler;
    private volatile TopicTable table = new TopicTable(new TableVersion(0, 5, 3),
            Map.of("bcq", TopicConfig.of("bcq", 4, ConsumeQueueType.BATCH), "scq", TopicConfig.of("scq", 2, ConsumeQueueType.SIMPLE)));

    @BeforeEach
    void start() {
        fakeNameServer = new RemotingServer(ServerSettings.builder().bindAddress("127.0.0.1").port(0).build());
        RequestHandler record = RequestHandler.sync((connection, request) -> {
            received.add(request);
            return RemotingCommand.responseTo(request, answerCode.get(), null).setExtFields(answerFields.get());
        });
        fakeNameServer.registerHandler(RequestCode.REGISTER_BROKER, record);
        fakeNameServer.registerHandler(RequestCode.UNREGISTER_BROKER, record);
        fakeNameServer.start();
        client = new RemotingClient(ClientSettings.defaults());
        scheduler = Executors.newSingleThreadScheduledExecutor();
    }

    @AfterEach
    void stop() {
        scheduler.shutdownNow();
        client.close();
        fakeNameServer.close();
    }

    private NameServerRegistrar registrar(List<String> addresses, long intervalMs) {
        return registrar(0, addresses, intervalMs);
    }

    private NameServerRegistrar registrar(long brokerId, List<String> addresses, long intervalMs) {
        return registrar(brokerId, 0, addresses, intervalMs);
    }

    private NameServerRegistrar registrar(long brokerId, int masterEpoch, List<String> addresses, long intervalMs) {
        RegistrarSettings settings = new RegistrarSettings("DefaultCluster", "broker-a", brokerId, "127.0.0.1:10911",
                "127.0.0.1:10912", addresses, intervalMs, 3_000, 3_000, masterEpoch);
        return new NameServerRegistrar(settings, client, () -> table, scheduler);
    }

    private String address() {
        return "127.0.0.1:" + fakeNameServer.port();
    }

    @Test
    void shouldRegisterFullTableAtStartWithCrc() {
        try (NameServerRegistrar registrar = registrar(List.of(address()), 60_000)) {
            registrar.start();
            assertEquals(1, received.size(), "start waits for the full registration");
            RemotingCommand request = received.get(0);
            assertEquals(RequestCode.REGISTER_BROKER, request.code());
            assertEquals("broker-a", request.extField("brokerName"));
            assertEquals("127.0.0.1:10911", request.extField("brokerAddr"));
            assertEquals("DefaultCluster", request.extField("clusterName"));
            assertEquals("127.0.0.1:10912", request.extField("haServerAddr"));
            assertEquals("0", request.extField("brokerId"));
            assertEquals("false", request.extField("compressed"));
            assertTrue(request.version() >= 37, "name servers parse the body only from version 37");
            byte[] body = request.body();
            assertEquals(String.valueOf(RegisterBrokerBody.crc32(body)), request.extField("bodyCrc32"));
            RegisterBrokerBody decoded = BodyCodec.decode(body, RegisterBrokerBody.class);
            assertEquals(3, decoded.topicConfigSerializeWrapper().dataVersion().counter());
            Map<String, TopicConfigWire> topics = decoded.topicConfigSerializeWrapper().topicConfigTable();
            assertEquals(2, topics.size());
            assertEquals(Map.of("queue.type", "BatchCQ"), topics.get("bcq").attributes());
            assertEquals(4, topics.get("bcq").writeQueueNums());
            assertEquals(1, registrar.registrations());
        }
        RemotingCommand unregister = received.get(received.size() - 1);
        assertEquals(RequestCode.UNREGISTER_BROKER, unregister.code());
        assertEquals("broker-a", unregister.extField("brokerName"));
        assertEquals("127.0.0.1:10911", unregister.extField("brokerAddr"));
    }

    @Test
    void shouldSendTheMasterEpochOfItsRoleInControllerModeOnly() {
        try (NameServerRegistrar registrar = registrar(0, 3, List.of(address()), 60_000)) {
            registrar.start();
            registrar.announce(List.of(TopicConfig.of("fresh", 8, ConsumeQueueType.SIMPLE)), new TableVersion(0, 9, 4))
                    .join();
        }
        assertEquals("3", received.get(0).extField("masterEpoch"), "full registration");
        assertEquals("3", received.get(1).extField("masterEpoch"), "incremental registration");
        received.clear();
        try (NameServerRegistrar registrar = registrar(0, 0, List.of(address()), 60_000)) {
            registrar.start();
        }
        assertNull(received.get(0).extField("masterEpoch"), "outside controller mode, exactly Apache's fields");
    }

    @Test
    void shouldCountARefusalForAStaleMasterEpochAsAFailure() {
        answerCode.set(ControllerWireDescriptor.CONTROLLER_FENCED_MASTER_EPOCH);
        try (NameServerRegistrar registrar = registrar(0, 1, List.of(address()), 60_000)) {
            registrar.start();
            assertEquals(1, registrar.failures());
            assertEquals(0, registrar.registrations());
        }
    }

    @Test
    void shouldAnnounceOnlyNewTopics() {
        try (NameServerRegistrar registrar = registrar(List.of(address()), 60_000)) {
            registrar.start();
            registrar.announce(List.of(TopicConfig.of("fresh", 8, ConsumeQueueType.SIMPLE)), new TableVersion(0, 9, 4))
                    .join();
            RegisterBrokerBody body = BodyCodec.decode(received.get(1).body(), RegisterBrokerBody.class);
            assertEquals(List.of("fresh"), List.copyOf(body.topicConfigSerializeWrapper().topicConfigTable()
                    .keySet()));
            assertEquals(4, body.topicConfigSerializeWrapper().dataVersion().counter());
        }
    }

    @Test
    void shouldRegisterPeriodically() {
        try (NameServerRegistrar registrar = registrar(List.of(address()), 50)) {
            registrar.start();
            Await.until("three periodic registrations", () -> registrar.registrations() >= 4);
        }
    }

    @Test
    void shouldCountFailuresWithoutThrowing() {
        answerCode.set(ResponseCode.SYSTEM_ERROR);
        try (NameServerRegistrar registrar = registrar(List.of(address(), "127.0.0.1:1"), 60_000)) {
            registrar.start();
            assertEquals(2, registrar.failures());
            registrar.announce(List.of(), new TableVersion(0, 1, 1)).join();
            assertEquals(4, registrar.failures());
        }
    }

    @Test
    void aSlaveLearnsItsMasterFromTheNameServersAnswerAndKeepsItWhenAnAnswerNamesNone() {
        answerFields.set(Map.of("masterAddr", "10.0.0.1:10911", "haServerAddr", "10.0.0.1:10912"));
        try (NameServerRegistrar slave = registrar(1, List.of(address()), 60_000)) {
            slave.start();
            assertEquals(Optional.of(new NameServerRegistrar.MasterAddresses("10.0.0.1:10911", "10.0.0.1:10912")),
                    slave.master());
            answerFields.set(Map.of("masterAddr", "", "haServerAddr", ""));
            slave.registerAll().join();
            assertEquals("10.0.0.1:10911", slave.master().orElseThrow().brokerAddr(),
                    "an answer without a master keeps the last one known");
            answerFields.set(Map.of("masterAddr", "10.0.0.2:10911", "haServerAddr", "10.0.0.2:10912"));
            slave.registerAll().join();
            assertEquals("10.0.0.2:10912", slave.master().orElseThrow().haAddr(), "a new master replaces it");
        }
        answerFields.set(Map.of("masterAddr", "10.0.0.1:10911", "haServerAddr", "10.0.0.1:10912"));
        try (NameServerRegistrar master = registrar(0, List.of(address()), 60_000)) {
            master.start();
            assertEquals(Optional.empty(), master.master(), "a master has no master");
        }
    }

    @Test
    void shouldDoNothingWithoutNameServers() {
        try (NameServerRegistrar registrar = registrar(List.of(), 60_000)) {
            registrar.start();
            assertTrue(registrar.announce(List.of(), new TableVersion(0, 1, 1)).isDone());
        }
        assertTrue(received.isEmpty());
    }
}
