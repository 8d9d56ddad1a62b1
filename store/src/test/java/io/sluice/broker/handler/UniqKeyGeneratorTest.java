package io.sluice.broker.handler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.time.ZoneOffset;
import java.util.HashSet;
import java.util.Set;
import org.agrona.concurrent.CachedEpochClock;
import org.junit.jupiter.api.Test;

class UniqKeyGeneratorTest {

    private static final long MAY_2_2026_UTC_MS = 1_777_680_000_000L; // 2026-05-02T00:00:00Z

    @Test
    void shouldEncodeAddressAndTimeSinceTheMonthStarted() throws Exception {
        CachedEpochClock clock = new CachedEpochClock();
        clock.update(MAY_2_2026_UTC_MS + 5);
        UniqKeyGenerator generator = new UniqKeyGenerator(InetAddress.getByName("127.0.0.1"), clock, ZoneOffset.UTC);
        String key = generator.next();
        assertEquals(32, key.length());
        assertTrue(key.startsWith("7F000001"), key);
        long sinceMonthStart = Long.parseLong(key.substring(20, 28), 16);
        assertEquals(86_400_000L + 5, sinceMonthStart, "one day and 5 ms into May");
        assertEquals("0000", key.substring(28));
        assertEquals("0001", generator.next().substring(28), "the counter advances");
    }

    @Test
    void shouldRollOverToTheNextMonth() throws Exception {
        CachedEpochClock clock = new CachedEpochClock();
        clock.update(MAY_2_2026_UTC_MS);
        UniqKeyGenerator generator = new UniqKeyGenerator(InetAddress.getByName("10.1.2.3"), clock, ZoneOffset.UTC);
        generator.next();
        clock.update(MAY_2_2026_UTC_MS + 30L * 86_400_000L + 7); // 2026-06-01T00:00:00.007Z
        assertEquals(7, Long.parseLong(generator.next().substring(20, 28), 16));
    }

    @Test
    void shouldUseSixteenAddressBytesForIpv6() throws Exception {
        CachedEpochClock clock = new CachedEpochClock();
        clock.update(MAY_2_2026_UTC_MS);
        UniqKeyGenerator generator = new UniqKeyGenerator(InetAddress.getByName("::1"), clock, ZoneOffset.UTC);
        assertEquals(56, generator.next().length());
    }

    @Test
    void shouldNotRepeatKeys() throws Exception {
        CachedEpochClock clock = new CachedEpochClock();
        clock.update(MAY_2_2026_UTC_MS);
        UniqKeyGenerator generator = new UniqKeyGenerator(InetAddress.getByName("127.0.0.1"), clock, ZoneOffset.UTC);
        Set<String> keys = new HashSet<>();
        for (int i = 0; i < 10_000; i++) {
            clock.advance(i % 3 == 0 ? 1 : 0);
            assertTrue(keys.add(generator.next()));
        }
    }
}
