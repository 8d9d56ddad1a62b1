package io.sluice.format;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class UniqKeyGeneratorTest {

    @Test
    void shouldWriteIpPidLoaderHashTimeAndCounterAsUpperCaseHex() {
        long monthStart = ZonedDateTime.of(2025, 3, 1, 0, 0, 0, 0, ZoneId.of("UTC")).toInstant().toEpochMilli();
        UniqKeyGenerator keys = new UniqKeyGenerator(new byte[] {127, 0, 0, 1}, 0x12345, 0xCAFEBABE,
                () -> monthStart + 0x0102, ZoneId.of("UTC"));
        String key = keys.next();
        assertEquals(32, key.length());
        assertEquals("7F000001" + "2345" + "CAFEBABE" + "00000102", key.substring(0, 28));
        assertTrue(key.matches("[0-9A-F]{32}"), key);
    }

    @Test
    void shouldWriteSixteenAddressBytesForAnIpv6Host() {
        byte[] loopback6 = new byte[16];
        loopback6[15] = 1;
        UniqKeyGenerator keys = new UniqKeyGenerator(loopback6, 1, 1, () -> 1_750_000_000_000L, ZoneId.of("UTC"));
        String key = keys.next();
        assertEquals(56, key.length());
        assertEquals("00000000000000000000000000000001", key.substring(0, 32));
    }

    @Test
    void shouldRestartTheTimePartWhenTheMonthRollsOver() {
        ZoneId utc = ZoneId.of("UTC");
        long april = ZonedDateTime.of(2025, 4, 1, 0, 0, 0, 0, utc).toInstant().toEpochMilli();
        AtomicLong now = new AtomicLong(april - 5);
        UniqKeyGenerator keys = new UniqKeyGenerator(new byte[] {10, 0, 0, 1}, 1, 1, now::get, utc);
        String march = keys.next();
        now.set(april + 3);
        String aprilKey = keys.next();
        assertTrue(Long.parseLong(march.substring(20, 28), 16) > 1_000_000L);
        assertEquals(3, Long.parseLong(aprilKey.substring(20, 28), 16));
    }

    @Test
    void shouldNotRepeatWithinOneMillisecondForSixtyFiveThousandKeys() {
        UniqKeyGenerator keys = new UniqKeyGenerator(new byte[] {10, 0, 0, 1}, 1, 1, () -> 1_750_000_000_000L,
                ZoneId.of("UTC"));
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < 65_536; i++) {
            assertTrue(seen.add(keys.next()));
        }
    }

    @Test
    void shouldReadTheClockEverySixteenKeysAndWhenAskedAndNeverGoBack() {
        ZoneId utc = ZoneId.of("UTC");
        long monthStart = ZonedDateTime.of(2025, 5, 1, 0, 0, 0, 0, utc).toInstant().toEpochMilli();
        AtomicLong now = new AtomicLong(monthStart + 1000);
        UniqKeyGenerator keys = new UniqKeyGenerator(new byte[] {10, 0, 0, 1}, 1, 1, now::get, utc);
        now.set(monthStart + 2000);
        List<Long> times = new ArrayList<>();
        for (int i = 0; i < UniqKeyGenerator.KEYS_PER_CLOCK_READ; i++) {
            times.add(timeOf(keys));
        }
        int firstNew = times.indexOf(2000L);
        assertTrue(firstNew >= 0, "one of " + times + " read the clock");
        for (int i = 0; i < times.size(); i++) {
            assertEquals(i < firstNew ? 1000L : 2000L, times.get(i), "key " + i + " of " + times);
        }
        now.set(monthStart + 3000);
        keys.readClock();
        assertEquals(3000L, timeOf(keys), "the key after a clock read carries its time");
        now.set(monthStart + 2500);
        keys.readClock();
        for (int i = 0; i < UniqKeyGenerator.KEYS_PER_CLOCK_READ; i++) {
            assertEquals(3000L, timeOf(keys), "a clock that went back does not take the time part back");
        }
    }

    private static long timeOf(UniqKeyGenerator keys) {
        byte[] out = new byte[keys.keyChars()];
        keys.write(out, 0);
        return Long.parseLong(new String(out, 20, 8, StandardCharsets.US_ASCII), 16);
    }
}
