package io.sluice.broker.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(value = 10, unit = TimeUnit.SECONDS)
class RuntimeSettingsTest {

    @TempDir
    Path dir;

    private BrokerSettings boot() {
        return BrokerSettings.builder().setText("storePathRootDir", dir.toString()).build();
    }

    @Test
    void shouldApplyPersistAndReloadAChangeableKey() throws IOException {
        RuntimeSettings runtime = RuntimeSettings.withPersisted(boot(), 1_000);
        AtomicReference<Boolean> applied = new AtomicReference<>();
        runtime.onChange(BrokerConfigKeys.AUTO_CREATE_SUBSCRIPTION_GROUP,
                s -> applied.set(s.autoCreateSubscriptionGroup()));
        runtime.update(Map.of("autoCreateSubscriptionGroup", "false"), 2_000);
        assertEquals(false, applied.get());
        assertFalse(runtime.current().autoCreateSubscriptionGroup());
        assertEquals(1, runtime.changes());
        assertEquals(2_000, runtime.lastChangeMs());
        assertTrue(Files.exists(dir.resolve("config").resolve(RuntimeSettings.FILE_NAME)));

        RuntimeSettings reloaded = RuntimeSettings.withPersisted(boot(), 3_000);
        assertFalse(reloaded.current().autoCreateSubscriptionGroup());
        assertEquals("false", reloaded.current().toProperties().get("autoCreateSubscriptionGroup"));
    }

    @Test
    void shouldRefuseTheWholeUpdateNamingTheKeyThatCannotChange() throws IOException {
        RuntimeSettings runtime = RuntimeSettings.withPersisted(boot(), 1_000);
        ConfigException fixed = assertThrows(ConfigException.class, () -> runtime.update(
                Map.of("autoCreateSubscriptionGroup", "false", "listenPort", "1"), 2_000));
        assertEquals("listenPort", fixed.key());
        assertTrue(runtime.current().autoCreateSubscriptionGroup(), "nothing changed");
        ConfigException unknown = assertThrows(ConfigException.class,
                () -> runtime.update(Map.of("noSuchKey", "1"), 2_000));
        assertEquals("noSuchKey", unknown.key());
        ConfigException invalid = assertThrows(ConfigException.class,
                () -> runtime.update(Map.of("clientChannelExpiredTimeoutMs", "-5"), 2_000));
        assertEquals("clientChannelExpiredTimeoutMs", invalid.key());
        assertEquals(0, runtime.changes());
        assertFalse(Files.exists(dir.resolve("config").resolve(RuntimeSettings.FILE_NAME)));
    }
}
