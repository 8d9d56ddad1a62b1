package io.sluice.namesrv.controller;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The controller's settings from Apache's keys: defaults, overrides, and a clear refusal, naming the key, of every
 * value the controller could not start with (found when the settings are read, not when the Raft server starts).
 */
@Timeout(10)
class ControllerSettingsTest {

    @Test
    void emptyPropertiesGiveApachesDefaults() {
        ControllerSettings settings = ControllerSettings.fromProperties(new Properties());
        assertFalse(settings.enabled());
        assertEquals("DefaultControllerGroup", settings.group());
        assertEquals(Map.of("n0", "127.0.0.1:9877"), settings.peers());
        assertEquals("n0", settings.selfId());
        assertEquals(Path.of(System.getProperty("user.home"), "DledgerController"), settings.storePath());
        assertEquals(1_000, settings.scanIntervalMs());
        assertEquals(9877, settings.selfPort());
    }

    @Test
    void everyKeyOverridesItsDefaultAndValuesAreTrimmed() {
        String[] keysAndValues = {
            "enableControllerInNamesrv", " TRUE ", "controllerDLegerGroup", " g1 ",
            "controllerDLegerPeers", " n2-10.0.0.2:9002 ; n1-10.0.0.1:9001;n3-[::1]:9003; ",
            "controllerDLegerSelfId", " n3 ", "controllerStorePath", " /var/sluice/controller ",
            "scanNotActiveBrokerInterval", " 250 ", "brokerName", "ignored"};
        Properties p = new Properties();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            p.setProperty(keysAndValues[i], keysAndValues[i + 1]);
        }
        ControllerSettings settings = ControllerSettings.fromProperties(p);
        assertTrue(settings.enabled());
        assertEquals("g1", settings.group());
        assertEquals(List.of("n2", "n1", "n3"), List.copyOf(settings.peers().keySet()), "in the order written");
        assertEquals("[::1]:9003", settings.peers().get("n3"));
        assertEquals("n3", settings.selfId());
        assertEquals(Path.of("/var/sluice/controller"), settings.storePath());
        assertEquals(250, settings.scanIntervalMs());
        assertEquals(9003, settings.selfPort());
        assertThrows(UnsupportedOperationException.class, () -> settings.peers().put("n4", "h:1"));
    }

    @Test
    void aSingleControllerIsNamedN0() {
        ControllerSettings settings = ControllerSettings.single("127.0.0.1:19877", Path.of("/tmp/c"));
        assertTrue(settings.enabled());
        assertEquals(Map.of("n0", "127.0.0.1:19877"), settings.peers());
        assertEquals(19877, settings.selfPort());
        assertTrue(ControllerSettings.KEYS.contains("controllerDLegerPeers"));
        assertEquals(6, ControllerSettings.KEYS.size());
    }

    @Test
    void malformedPeerEntriesAreRefusedNamingTheEntry() {
        for (String entry : List.of("n0", "n0-", "-127.0.0.1:9877", "n0-127.0.0.1", "n0-127.0.0.1:", "n0-:9877",
                "n0-127.0.0.1:port", "n0-127.0.0.1:0", "n0-127.0.0.1:65536", "n0-127.0.0.1:-1")) {
            Properties p = new Properties();
            p.setProperty("controllerDLegerPeers", entry);
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> ControllerSettings.fromProperties(p), entry);
            assertTrue(e.getMessage().startsWith("controllerDLegerPeers entry '" + entry + "'"), e.getMessage());
        }
    }

    @Test
    void aPeerIdGivenTwiceIsRefused() {
        Properties p = new Properties();
        p.setProperty("controllerDLegerPeers", "n0-10.0.0.1:9877;n1-10.0.0.2:9877;n0-10.0.0.3:9877");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ControllerSettings.fromProperties(p));
        assertEquals("controllerDLegerPeers names n0 twice", e.getMessage());
    }

    @Test
    void otherBadValuesAreRefusedNamingTheKey() {
        assertRefused("enableControllerInNamesrv", "yes", "enableControllerInNamesrv must be true or false");
        assertRefused("scanNotActiveBrokerInterval", "1s", "scanNotActiveBrokerInterval must be a number");
        assertRefused("scanNotActiveBrokerInterval", "0", "scanNotActiveBrokerInterval must be positive");
        assertRefused("controllerDLegerGroup", "  ", "controllerDLegerGroup must not be blank");
        assertRefused("controllerDLegerPeers", " ; ", "controllerDLegerPeers must name at least one controller");
        assertRefused("controllerDLegerSelfId", "n9", "controllerDLegerSelfId 'n9' is not one of");
        assertThrows(IllegalArgumentException.class, () -> new ControllerSettings(true, "g",
                Map.of("n0", "h:1"), "n0", null, 1_000), "controllerStorePath must be set");
    }

    private static void assertRefused(String key, String value, String messageStart) {
        Properties p = new Properties();
        p.setProperty(key, value);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ControllerSettings.fromProperties(p), key + "=" + value);
        assertTrue(e.getMessage().startsWith(messageStart), e.getMessage());
    }
}
