package io.sluice.broker.schedule;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import net.jqwik.api.constraints.Size;

/**
 * Delay levels as a send names them: any level, however far out of range, is clamped into {@code 1..maxLevel}
 * and gets that level's delay; the levels are copied; each bad setting is refused naming it.
 */
class ScheduleSettingsPropertyTest {

    @Property(tries = 300)
    void anyLevelGetsTheDelayOfItsClampedLevel(
            @ForAll @Size(min = 1, max = 20) List<@LongRange(min = 1, max = 7_200_000) Long> levels,
            @ForAll @IntRange(min = -1_000, max = 1_000) int level) {
        ScheduleSettings settings = ScheduleSettings.of(levels);
        int clamped = settings.clampLevel(level);
        assertTrue(clamped >= 1 && clamped <= levels.size(), level + " -> " + clamped);
        if (level >= 1 && level <= levels.size()) {
            assertEquals(level, clamped, "a level in range is kept");
        } else {
            assertEquals(level < 1 ? 1 : levels.size(), clamped, "an out-of-range level takes the nearest end");
        }
        assertEquals(levels.get(clamped - 1), settings.delayMs(level));
        assertEquals(levels.size(), settings.maxLevel());
    }

    @Example
    void theLevelsAreCopiedAndTheDefaultsAreApaches() {
        List<Long> levels = new ArrayList<>(List.of(1_000L, 2_000L));
        ScheduleSettings settings = ScheduleSettings.of(levels);
        levels.set(0, 9L);
        assertEquals(1_000L, settings.delayMs(1));
        ScheduleSettings defaults = ScheduleSettings.defaults();
        assertEquals(18, defaults.maxLevel());
        assertEquals(1_000L, defaults.delayMs(1));
        assertEquals(7_200_000L, defaults.delayMs(18));
        assertEquals(7_200_000L, defaults.delayMs(Integer.MAX_VALUE));
        assertEquals(1_000L, defaults.delayMs(Integer.MIN_VALUE));
    }

    @Example
    void eachBadSettingIsNamed() {
        assertEquals("delayLevelsMs must name at least one level", assertThrows(IllegalArgumentException.class,
                () -> ScheduleSettings.of(List.of())).getMessage());
        assertEquals("delay level 2 must be positive, was 0 ms", assertThrows(IllegalArgumentException.class,
                () -> ScheduleSettings.of(List.of(1L, 0L))).getMessage());
        assertEquals("maxBatch must be >= 1, was 0", assertThrows(IllegalArgumentException.class,
                () -> new ScheduleSettings(List.of(1L), 0, 100)).getMessage());
        assertEquals("pollIntervalMs must be >= 1, was 0", assertThrows(IllegalArgumentException.class,
                () -> new ScheduleSettings(List.of(1L), 1, 0)).getMessage());
    }
}
