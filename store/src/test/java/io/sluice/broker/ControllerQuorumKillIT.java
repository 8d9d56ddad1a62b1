package io.sluice.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.testing.Await;
import io.sluice.namesrv.NameServer;
import io.sluice.namesrv.NamesrvSettings;
import io.sluice.remoting.protocol.RemotingCommand;
import io.sluice.remoting.protocol.ResponseCode;
import io.sluice.remoting.protocol.controller.ControllerWireDescriptor;
import io.sluice.remoting.protocol.controller.ReplicaInfo;
import io.sluice.remoting.transport.ClientSettings;
import io.sluice.remoting.transport.RemotingClient;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A quorum of three standalone controllers, each in its own JVM, and two controller-mode brokers of one group as
 * child JVMs, under load from the unmodified Apache producer (sync and async sends). The controller leader is
 * SIGKILLed; the other two elect a new Raft leader, and when the master broker is SIGKILLed next they still elect
 * the in-sync slave, which the producer then reaches. The killed broker rejoins as a slave of the new master
 * (the remaining quorum records the in-sync set change). Every acknowledged message is stored once.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class ControllerQuorumKillIT {

    private static final String TOPIC = "QuorumKilled";
    private static final long CALL_TIMEOUT_MS = 2_000;

    @TempDir
    Path dir;

    private final List<String> controllerAddrs = new ArrayList<>();

    @Test
    void twoOfThreeControllersKeepElectingMasters() throws Exception {
        try (NameServer namesrv = new NameServer(NamesrvSettings.defaults().withListen("127.0.0.1", 0));
             ChildJvms jvms = new ChildJvms(dir);
             RemotingClient client = new RemotingClient(ClientSettings.defaults())) {
            namesrv.start();
            String namesrvAddr = "127.0.0.1:" + namesrv.port();
            startControllers(jvms);
            String controllerAddr = String.join(";", controllerAddrs);
            Map<String, String> brokers = new LinkedHashMap<>();
            for (String name : List.of("a", "b")) {
                String address = "127.0.0.1:" + FailoverLoad.writeBrokerConf(dir, name, namesrvAddr, controllerAddr);
                brokers.put(address, name);
                startBroker(jvms, address, name);
            }
            Await.until("a master and an in-sync slave", 90_000, () -> inSync(client) == 2, () -> info(client));
            ReplicaInfo first = info(client).orElseThrow();
            FailoverLoad.createTopic(namesrvAddr, TOPIC, first.masterAddress());
            String slave = brokers.keySet().stream().filter(b -> !b.equals(first.masterAddress())).findFirst()
                    .orElseThrow();
            Await.until("the slave to copy the topic", 30_000, () -> FailoverLoad.hasTopic(namesrvAddr, slave, TOPIC),
                    () -> slave);
            try (FailoverLoad load = new FailoverLoad(namesrvAddr, TOPIC)) {
                load.start();
                load.awaitMoreAcks(200, 60_000);

                String leader = leader(client).orElseThrow();
                jvms.kill(leader);
                Await.until("another controller to lead", 60_000,
                        () -> leader(client).filter(l -> !l.equals(leader)).isPresent(),
                        () -> "(after killing " + leader + ", the controllers saw: " + controllersSaw(client) + ")");
                load.awaitMoreAcks(200, 60_000);
                // The new leader has not heard from the slave yet when the master's first heartbeat arrives: it must
                // not call it dead, or the master drops it from the in-sync set and no replica is left to elect.
                ReplicaInfo handedOver = info(client).orElseThrow();
                assertEquals(2, handedOver.syncStateSet().size(), () -> "the slave stays in sync across the hand-over: "
                        + controllersSaw(client));

                String master = handedOver.masterAddress();
                long killNanos = System.nanoTime();
                jvms.kill(master);
                long firstAck = load.awaitFirstAckAfter(killNanos, master, 60_000,
                        () -> " (the controllers saw: " + controllersSaw(client) + ")");
                ReplicaInfo after = info(client).orElseThrow();
                System.out.printf("controller %s killed, then master %s: new master %s (epoch %d), kill to first"
                        + " acknowledged send %d ms%n", leader, master, after.masterAddress(), after.masterEpoch(),
                        TimeUnit.NANOSECONDS.toMillis(firstAck - killNanos));
                assertTrue(after.masterEpoch() > first.masterEpoch(), after::toString);

                startBroker(jvms, master, brokers.get(master));
                Await.until("the killed broker back in the in-sync set", 60_000, () -> inSync(client) == 2,
                        () -> "(the controllers saw: " + controllersSaw(client) + ")");
                load.awaitMoreAcks(200, 60_000);
                load.stop();
                load.verify(namesrvAddr);
            }
        }
    }

    private void startBroker(ChildJvms jvms, String address, String name) {
        jvms.start(address, name, FailoverChild.class, dir.resolve(name + ".conf").toString());
    }

    /** Starts three controllers, each in its own JVM with its own Raft and broker-facing ports. */
    private void startControllers(ChildJvms jvms) throws IOException {
        List<String> peers = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            peers.add("c" + i + "-127.0.0.1:" + FailoverLoad.freePort());
        }
        for (int i = 0; i < 3; i++) {
            int port = FailoverLoad.freePort();
            Properties conf = new Properties();
            conf.setProperty("controllerDLegerGroup", "QuorumGroup");
            conf.setProperty("controllerDLegerPeers", String.join(";", peers));
            conf.setProperty("controllerDLegerSelfId", "c" + i);
            conf.setProperty("controllerStorePath", dir.resolve("controller-c" + i).toString());
            conf.setProperty("listenPort", Integer.toString(port));
            Path file = dir.resolve("controller-c" + i + ".conf");
            try (Writer out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
                conf.store(out, "controller c" + i);
            }
            String address = "127.0.0.1:" + port;
            controllerAddrs.add(address);
            jvms.start(address, "controller-c" + i, ControllerChild.class, file.toString());
        }
    }

    /** The controller that answers as leader, if one does. */
    private Optional<String> leader(RemotingClient client) {
        return controllerAddrs.stream().filter(address -> call(client, address)
                .filter(r -> r.code() != ControllerWireDescriptor.CONTROLLER_NOT_LEADER).isPresent()).findFirst();
    }

    /** The group as the leader sees it, if a leader answers. */
    private Optional<ReplicaInfo> info(RemotingClient client) {
        for (String address : controllerAddrs) {
            Optional<RemotingCommand> answer = call(client, address)
                    .filter(r -> r.code() == ResponseCode.SUCCESS && r.body() != null);
            if (answer.isPresent()) {
                return Optional.of(ControllerWireDescriptor.decodeReplicaInfo(answer.get().body()));
            }
        }
        return Optional.empty();
    }

    /** Each controller's answer to a replica info query: the group as it sees it, or why it did not say. */
    private String controllersSaw(RemotingClient client) {
        StringBuilder saw = new StringBuilder();
        for (String address : controllerAddrs) {
            saw.append(saw.length() == 0 ? "" : "; ").append(address).append(": ");
            Optional<RemotingCommand> answer = call(client, address);
            if (answer.isEmpty()) {
                saw.append("no answer");
            } else if (answer.get().code() == ResponseCode.SUCCESS && answer.get().body() != null) {
                saw.append(ControllerWireDescriptor.decodeReplicaInfo(answer.get().body()));
            } else {
                saw.append("code ").append(answer.get().code()).append(' ').append(answer.get().remark());
            }
        }
        return saw.toString();
    }

    private int inSync(RemotingClient client) {
        return info(client).filter(i -> i.masterBrokerId() > 0).map(i -> i.syncStateSet().size()).orElse(0);
    }

    /** A replica info query to one controller; empty when it does not answer. */
    private static Optional<RemotingCommand> call(RemotingClient client, String address) {
        RemotingCommand request = RemotingCommand.request(ControllerWireDescriptor.CONTROLLER_GET_REPLICA_INFO)
                .putExtField(ControllerWireDescriptor.BROKER_NAME, "broker-a");
        try {
            return Optional.of(client.invoke(address, request, CALL_TIMEOUT_MS)
                    .get(CALL_TIMEOUT_MS + 1_000, TimeUnit.MILLISECONDS));
        } catch (ExecutionException | TimeoutException e) {
            return Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
    }
}
