package io.sluice.store.keyindex;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The key index's sizes at both ends of what the file layout allows, one past each end refused naming the setting
 * and the value, and Apache's defaults.
 */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class KeyIndexSettingsTest {

    private final KeyIndexSettings defaults = KeyIndexSettings.defaults(Path.of("/store"));

    @Test
    void theDefaultsAreApachesUnderTheStoreRoot() {
        assertEquals(Path.of("/store/index"), defaults.dir());
        assertTrue(defaults.enabled());
        assertEquals(5_000_000, defaults.hashSlotsPerFile());
        assertEquals(20_000_000, defaults.entriesPerFile());
        assertEquals(1_000, defaults.checkpointIntervalMs());
    }

    @Test
    void sizesAreAcceptedAtBothEndsOfTheLayout() {
        assertEquals(1, defaults.withSizes(1, KeyIndexDescriptor.MIN_ENTRIES).hashSlotsPerFile());
        KeyIndexSettings largest = defaults.withSizes(KeyIndexDescriptor.MAX_HASH_SLOTS,
                KeyIndexDescriptor.MAX_ENTRIES);
        assertEquals(KeyIndexDescriptor.MAX_ENTRIES, largest.entriesPerFile());
        assertEquals(1, defaults.withCheckpointIntervalMs(1).checkpointIntervalMs());
        assertEquals(false, defaults.withEnabled(false).enabled());
    }

    @Test
    void onePastEitherEndIsRefusedNamingTheSetting() {
        assertRefused(() -> defaults.withSizes(0, KeyIndexDescriptor.MIN_ENTRIES), "hashSlotsPerFile", "was 0");
        assertRefused(() -> defaults.withSizes(KeyIndexDescriptor.MAX_HASH_SLOTS + 1, KeyIndexDescriptor.MIN_ENTRIES),
                "hashSlotsPerFile", "was " + (KeyIndexDescriptor.MAX_HASH_SLOTS + 1));
        assertRefused(() -> defaults.withSizes(1, KeyIndexDescriptor.MIN_ENTRIES - 1), "entriesPerFile",
                "was " + (KeyIndexDescriptor.MIN_ENTRIES - 1));
        assertRefused(() -> defaults.withSizes(1, KeyIndexDescriptor.MAX_ENTRIES + 1), "entriesPerFile",
                "was " + (KeyIndexDescriptor.MAX_ENTRIES + 1));
        assertRefused(() -> defaults.withCheckpointIntervalMs(0), "checkpointIntervalMs", "was 0");
        assertThrows(NullPointerException.class, () -> new KeyIndexSettings(null, true, 1, 100, 1));
    }

    private static void assertRefused(Runnable build, String setting, String value) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, build::run);
        assertTrue(e.getMessage().startsWith(setting + " must be"), e.getMessage());
        assertTrue(e.getMessage().endsWith(value), e.getMessage());
    }
}
