package io.sluice.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.broker.config.BrokerConfigLoader;
import io.sluice.broker.config.BrokerSettings;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BrokerMainTest {

    @TempDir
    Path dir;

    @Test
    void shouldParseTheCommandLine() {
        BrokerMain.Command standalone = BrokerMain.Command.parse(new String[] {"standalone"});
        assertTrue(standalone.standalone());
        assertNull(standalone.configFile());
        BrokerMain.Command withFile = BrokerMain.Command.parse(new String[] {"broker", "-c", "/etc/broker.conf"});
        assertFalse(withFile.standalone());
        assertEquals(Path.of("/etc/broker.conf"), withFile.configFile());
        assertThrows(IllegalArgumentException.class, () -> BrokerMain.Command.parse(new String[] {}));
        assertThrows(IllegalArgumentException.class, () -> BrokerMain.Command.parse(new String[] {"broker"}));
        IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class,
                () -> BrokerMain.Command.parse(new String[] {"cluster"}));
        assertTrue(unknown.getMessage().contains("cluster"));
        IllegalArgumentException extra = assertThrows(IllegalArgumentException.class,
                () -> BrokerMain.Command.parse(new String[] {"standalone", "-x"}));
        assertTrue(extra.getMessage().contains("-x"));
    }

    @Test
    void shouldRegisterWithTheNameServerAddressOfTheStandaloneConfig() throws IOException {
        BrokerSettings defaults = BrokerConfigLoader.parse("storePathRootDir=" + dir);
        BrokerSettings registered = BrokerMain.withNamesrv(defaults, "127.0.0.1:9999");
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
        try (BrokerMain.Running running = BrokerMain.startStandalone(conf)) {
            assertEquals(namesrvPort, running.nameServer().port());
            assertEquals(1, running.nameServer().routes().liveBrokerCount());
            assertTrue(running.nameServer().routes().clusterInfo().toString().contains("broker-main"));
            assertTrue(running.broker().port() > 0);
        }
    }
}
