package io.sluice.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.store.dispatch.DispatchSettings;
import io.sluice.store.index.IndexSettings;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class StoreSettingsTest {

    private static final Path ROOT = Path.of("/var/sluice/store");

    @Test
    void shouldLayTheDefaultsOutUnderTheRoot() {
        StoreSettings s = StoreSettings.defaults(ROOT, StoreFixture.STORE_HOST);

        assertEquals(ROOT.resolve("commitlog"), s.log().commitLogDir());
        assertEquals(ROOT, s.index().rootDir());
        assertEquals(1_000, s.checkpointIntervalMs());
        assertEquals(DispatchSettings.defaults(), s.dispatch());
    }

    @Test
    void shouldNameTheBadValue() {
        StoreSettings s = StoreSettings.defaults(ROOT, StoreFixture.STORE_HOST);
        IllegalArgumentException index = assertThrows(IllegalArgumentException.class,
                () -> s.withIndex(IndexSettings.defaults(Path.of("/elsewhere"))));
        assertTrue(index.getMessage().contains("/elsewhere"), index.getMessage());
        IllegalArgumentException interval = assertThrows(IllegalArgumentException.class,
                () -> s.withCheckpointIntervalMs(0));
        assertTrue(interval.getMessage().contains("checkpointIntervalMs"), interval.getMessage());
        IllegalArgumentException park = assertThrows(IllegalArgumentException.class,
                () -> new DispatchSettings(0, 1, 1));
        assertTrue(park.getMessage().contains("maxParkMicros"), park.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new DispatchSettings(1, 0, 1));
        assertThrows(IllegalArgumentException.class, () -> new DispatchSettings(1, 1, -1));
    }
}
