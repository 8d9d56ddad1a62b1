package io.sluice.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.broker.config.BrokerConfigLoader;
import io.sluice.broker.config.BrokerSettings;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Map;
import org.apache.rocketmq.client.ClientConfig;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.client.impl.MQClientAPIImpl;
import org.apache.rocketmq.common.protocol.ResponseCode;
import org.apache.rocketmq.remoting.netty.NettyClientConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(60)
class StandaloneTest {

    @TempDir
    Path dir;

    @Test
    void shouldRegisterWithTheNameServerAddressOfTheStandaloneConfig() {
        BrokerSettings defaults = BrokerConfigLoader.parse("storePathRootDir=" + dir);
        BrokerSettings registered = Standalone.withNamesrv(defaults, "127.0.0.1:9999");
        assertEquals(List.of("127.0.0.1:9999"), registered.namesrvAddresses());
        assertEquals(defaults.storePathRootDir(), registered.storePathRootDir());
    }

    @Test
    void shouldRunAStandaloneNameServerAndBrokerFromAConfigFile() throws IOException {
        int namesrvPort = freePort();
        Path conf = dir.resolve("broker.conf");
        Files.writeString(conf, String.join("\n",
                "brokerName=broker-main",
                "namesrvAddr=127.0.0.1:" + namesrvPort,
                "listenPort=0",
                "brokerIP1=127.0.0.1",
                "storePathRootDir=" + dir.resolve("store"),
                "mappedFileSizeCommitLog=" + (8 << 20),
                "maxMessageSize=" + (1 << 20),
                "serverMaxFrameBytes=" + (2 << 20),
                "serverWorkerThreads=1",
                "pullMessageThreadPoolNums=2"));
        try (Standalone.Running running = Standalone.start(conf)) {
            assertEquals(namesrvPort, running.nameServer().port());
            assertEquals(1, running.nameServer().routes().liveBrokerCount());
            assertTrue(running.nameServer().routes().clusterInfo().toString().contains("broker-main"));
            assertTrue(running.broker().port() > 0);
            assertEquals("127.0.0.1", running.broker().settings().bindAddress(),
                    "a file without bindAddress binds the loopback address only");
        }
        Files.writeString(conf, "\nbindAddress=0.0.0.0\n", StandardOpenOption.APPEND);
        try (Standalone.Running running = Standalone.start(conf)) {
            assertEquals("0.0.0.0", running.broker().settings().bindAddress(), "the file's bindAddress wins");
            assertEquals("127.0.0.1", running.broker().settings().brokerIp1());
        }
    }

    @Test
    void withAuthenticationTheEmbeddedNameServerRefusesAnUnsignedRouteChange() throws Exception {
        int namesrvPort = freePort();
        String namesrvAddr = "127.0.0.1:" + namesrvPort;
        Path conf = dir.resolve("auth.conf");
        Files.writeString(conf, String.join("\n", "brokerName=broker-auth", "namesrvAddr=" + namesrvAddr,
                "listenPort=0", "haListenPort=0", "storePathRootDir=" + dir.resolve("auth-store"),
                "mappedFileSizeCommitLog=" + (8 << 20), "authenticationEnabled=true",
                "initAuthenticationUser={\"username\":\"root\",\"password\":\"root-secret\"}",
                "innerClientAuthenticationCredentials={\"accessKey\":\"inner\",\"secretKey\":\"inner-secret\"}"));
        try (Standalone.Running running = Standalone.start(conf)) {
            assertEquals(1, running.nameServer().routes().liveBrokerCount(),
                    "the broker registers, signing with its inner credentials");
            MQClientAPIImpl unsigned = new MQClientAPIImpl(new NettyClientConfig(), null, null, new ClientConfig());
            unsigned.start();
            try {
                MQClientException refused = assertThrows(MQClientException.class, () -> unsigned
                        .deleteTopicInNameServer(namesrvAddr, "broker-auth", "DefaultCluster", 10_000));
                assertEquals(ResponseCode.NO_PERMISSION, refused.getResponseCode(), refused::toString);
                assertTrue(running.nameServer().routes().routeOf("broker-auth").isPresent(), "the route is kept");
                assertTrue(running.nameServer().refusedUnauthenticated() >= 1);
            } finally {
                unsigned.shutdown();
            }
        }
    }

    @Test
    void authenticationWithoutInnerCredentialsIsRefusedAtStart() {
        BrokerSettings noInner = BrokerConfigLoader.parse("storePathRootDir=" + dir + "\nauthenticationEnabled=true\n"
                + "initAuthenticationUser={\"username\":\"root\",\"password\":\"root-secret\"}");
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                () -> Standalone.namesrvAuthentication(noInner));
        assertTrue(refused.getMessage().contains("innerClientAuthenticationCredentials"), refused::getMessage);
        BrokerSettings off = BrokerConfigLoader.parse("storePathRootDir=" + dir);
        assertFalse(Standalone.namesrvAuthentication(off).enabled());
    }

    @Test
    void withoutAFileEverythingIsOnTheLoopbackAddress() {
        BrokerSettings defaults = BrokerConfigLoader.parse("storePathRootDir=" + dir);
        BrokerSettings loopback = Standalone.with(defaults, Map.of("bindAddress", "127.0.0.1", "brokerIP1",
                "127.0.0.1"));
        assertEquals("127.0.0.1", loopback.bindAddress());
        assertEquals("127.0.0.1", loopback.brokerIp1());
        assertEquals("0.0.0.0", defaults.bindAddress(), "a broker outside standalone binds every interface");
    }

    private static int freePort() throws IOException {
        try (ServerSocket probe = new ServerSocket(0)) {
            return probe.getLocalPort();
        }
    }
}
