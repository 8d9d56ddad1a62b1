package io.sluice.store.keyindex;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 10, unit = TimeUnit.SECONDS)
class KeyMatchesTest {

    @Test
    void shouldKeepCheckedPositionsOnceInOfferOrderUntilFull() {
        List<Long> checked = new ArrayList<>();
        KeyMatches matches = new KeyMatches(position -> {
            checked.add(position);
            return position % 2 == 0; // odd positions: hash collisions, another key's record
        }, 3);
        for (long position : new long[] {40, 41, 40, 20, 33, 20, 10}) {
            assertFalse(matches.isFull());
            matches.offer(position);
        }
        assertTrue(matches.isFull());
        assertEquals(List.of(40L, 20L, 10L), List.copyOf(matches.positions()), "newest (first offered) first");
        assertEquals(7, matches.candidates());
        assertEquals(List.of(40L, 41L, 20L, 33L, 10L), checked, "a position already matched is not read again");
    }

    @Test
    void shouldCountDamagedChainsAndMatchNothingWhenNoRecordCarriesTheKey() {
        KeyMatches matches = new KeyMatches(position -> false, 5);
        matches.offer(7);
        matches.onDamagedChain();
        matches.onDamagedChain();
        assertEquals(Set.of(), matches.positions());
        assertEquals(2, matches.damagedChains());
        assertFalse(matches.isFull());
    }
}
