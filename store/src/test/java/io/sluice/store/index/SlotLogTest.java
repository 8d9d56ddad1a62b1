package io.sluice.store.index;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class SlotLogTest {

    @Test
    void fileNamesAreTheStartByteInTwentyZeroPaddedDigits() {
        assertEquals("00000000000000000000", SlotLog.fileName(0));
        assertEquals("00000000000013800000", SlotLog.fileName(13_800_000));
        assertEquals("09223372036854775807", SlotLog.fileName(Long.MAX_VALUE));
        assertTrue(SlotLog.isFileName(SlotLog.fileName(6_000_000L)));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> SlotLog.fileName(-20));
        assertTrue(e.getMessage().contains("-20"), e.getMessage());
    }
}
