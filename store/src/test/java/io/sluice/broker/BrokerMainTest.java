package io.sluice.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(30)
class BrokerMainTest {

    @Test
    void shouldParseTheCommandLine() {
        BrokerMain.Command withFile = BrokerMain.Command.parse(new String[] {"broker", "-c", "/etc/broker.conf"});
        assertEquals(Path.of("/etc/broker.conf"), withFile.configFile());
        assertThrows(IllegalArgumentException.class, () -> BrokerMain.Command.parse(new String[] {}));
        assertThrows(IllegalArgumentException.class, () -> BrokerMain.Command.parse(new String[] {"broker"}));
        IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class,
                () -> BrokerMain.Command.parse(new String[] {"cluster"}));
        assertTrue(unknown.getMessage().contains("cluster"));
        IllegalArgumentException standalone = assertThrows(IllegalArgumentException.class,
                () -> BrokerMain.Command.parse(new String[] {"standalone"}));
        assertTrue(standalone.getMessage().contains("standalone"));
        IllegalArgumentException extra = assertThrows(IllegalArgumentException.class,
                () -> BrokerMain.Command.parse(new String[] {"broker", "-c", "/etc/broker.conf", "-x"}));
        assertTrue(extra.getMessage().contains("-x"));
    }
}
