package io.sluice.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
        int namesrvPort;
        try (ServerSocket probe = new ServerSocket(0)) {
            namesrvPort = probe.getLocalPort();
        }
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
    void withoutAFileEverythingIsOnTheLoopbackAddress() {
        BrokerSettings defaults = BrokerConfigLoader.parse("storePathRootDir=" + dir);
        BrokerSettings loopback = Standalone.with(defaults, Map.of("bindAddress", "127.0.0.1", "brokerIP1",
                "127.0.0.1"));
        assertEquals("127.0.0.1", loopback.bindAddress());
        assertEquals("127.0.0.1", loopback.brokerIp1());
        assertEquals("0.0.0.0", defaults.bindAddress(), "a broker outside standalone binds every interface");
    }
}
