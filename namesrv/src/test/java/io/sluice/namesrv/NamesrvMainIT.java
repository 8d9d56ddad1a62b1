package io.sluice.namesrv;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.remoting.protocol.RemotingCommand;
import io.sluice.remoting.protocol.ResponseCode;
import io.sluice.remoting.protocol.controller.ControllerWireDescriptor;
import io.sluice.remoting.protocol.controller.ReplicaInfo;
import io.sluice.remoting.transport.ClientSettings;
import io.sluice.remoting.transport.RemotingClient;
import io.sluice.testing.Await;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real entry point in its own JVM: {@code NamesrvMain -c namesrv.conf} with {@code enableControllerInNamesrv}
 * and the {@code controllerDLeger*} keys embeds a controller, which answers a broker's heartbeat on the name
 * server's port and makes that broker master of its group.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class NamesrvMainIT {

    @TempDir
    Path dir;

    @Test
    void theControllerKeysStartAnEmbeddedControllerOnTheNameServerPort() throws Exception {
        int port = freePort();
        Path conf = dir.resolve("namesrv.conf");
        Files.writeString(conf, "listenAddress=127.0.0.1\nlistenPort=" + port + "\n"
                + "enableControllerInNamesrv=true\n"
                + "controllerDLegerGroup=MainGroup\n"
                + "controllerDLegerPeers=c0-127.0.0.1:" + freePort() + "\n"
                + "controllerDLegerSelfId=c0\n"
                + "controllerStorePath=" + dir.resolve("controller") + "\n", StandardCharsets.UTF_8);
        Process child = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx128m", "-XX:+UseSerialGC", "-cp", System.getProperty("java.class.path"),
                NamesrvMain.class.getName(), "-c", conf.toString())
                .redirectErrorStream(true)
                .redirectOutput(dir.resolve("namesrv.log").toFile())
                .start();
        try (RemotingClient client = new RemotingClient(ClientSettings.defaults())) {
            String address = "127.0.0.1:" + port;
            AtomicReference<RemotingCommand> last = new AtomicReference<>();
            Await.until("the embedded controller to answer a heartbeat", Duration.ofSeconds(40), () -> {
                last.set(heartbeat(client, address));
                return last.get() != null && last.get().code() == ResponseCode.SUCCESS;
            });
            ReplicaInfo info = ControllerWireDescriptor.decodeReplicaInfo(last.get().body());
            Await.until("the controller to elect the only broker", Duration.ofSeconds(20), () -> {
                RemotingCommand answer = heartbeat(client, address);
                return answer != null && ControllerWireDescriptor.decodeReplicaInfo(answer.body()).isMaster();
            });
            assertTrue(info.brokerId() > 0, info::toString);
        } finally {
            child.destroy();
            assertTrue(child.waitFor(30, TimeUnit.SECONDS), "the name server did not stop");
        }
        assertEquals(143, child.exitValue(), Files.readString(dir.resolve("namesrv.log")));
    }

    /** A heartbeat of broker {@code 127.0.0.1:1} of group {@code main-a}; null when the call failed. */
    private static RemotingCommand heartbeat(RemotingClient client, String address) {
        RemotingCommand request = RemotingCommand.request(ControllerWireDescriptor.BROKER_HEARTBEAT)
                .putExtField(ControllerWireDescriptor.CLUSTER_NAME, "DefaultCluster")
                .putExtField(ControllerWireDescriptor.BROKER_NAME, "main-a")
                .putExtField(ControllerWireDescriptor.BROKER_ADDR, "127.0.0.1:1")
                .putExtField(ControllerWireDescriptor.HA_SERVER_ADDR, "127.0.0.1:2")
                .putExtField(ControllerWireDescriptor.LOG_END_POSITION, 0L)
                .putExtField(ControllerWireDescriptor.HEARTBEAT_TIMEOUT_MILLIS, 10_000L);
        try {
            return client.invoke(address, request, 2_000).get(3, TimeUnit.SECONDS);
        } catch (Exception e) {
            return null;
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
