package io.sluice.store.retention;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class RetentionSettingsTest {

    @Test
    void shouldHaveApacheDefaults() {
        RetentionSettings s = RetentionSettings.defaults();
        assertEquals(72, s.fileReservedHours());
        assertEquals(72L * 3_600_000L, s.fileReservedMs());
        assertEquals(List.of(4), s.deleteWhenHours());
        assertEquals(0.75, s.diskMaxUsedSpaceRatio());
        assertEquals(0.85, s.diskForceCleanRatio());
        assertEquals(0.90, s.diskRefuseWriteRatio());
        assertEquals(10_000, s.checkIntervalMs());
        assertFalse(s.cleanFileForcibly(), "Sluice keeps unread messages by default");
    }

    @Test
    void shouldNameTheBadValue() {
        RetentionSettings d = RetentionSettings.defaults();
        assertMessage("fileReservedHours", () -> d.withFileReservedHours(0));
        assertMessage("[4, 24]", () -> d.withDeleteWhenHours(List.of(4, 24)));
        assertMessage("deleteWhenHours", () -> d.withDeleteWhenHours(Arrays.asList(4, null)));
        assertMessage("diskMaxUsedSpaceRatio must be in (0, 1], was 75.0", () -> d.withRatios(75, 0.85, 0.9));
        assertMessage("diskForceCleanRatio", () -> d.withRatios(0.75, 0, 0.9));
        assertMessage("diskRefuseWriteRatio", () -> d.withRatios(0.75, 0.85, Double.NaN));
        assertMessage("checkIntervalMs", () -> d.withCheckIntervalMs(0));
        assertMessage("maxSegmentDeletesPerRun", () -> d.withMaxSegmentDeletesPerRun(0));
    }

    private static void assertMessage(String expected, Runnable build) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, build::run);
        assertTrue(e.getMessage().contains(expected), e.getMessage());
    }
}
