package io.sluice.broker.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.ZoneOffset;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class BrokerStatsTest {

    /** 2024-01-01T23:59:50Z. */
    private static final long LATE_EVENING_MS = 1_704_153_590_000L;

    private final AtomicLong nowMs = new AtomicLong(LATE_EVENING_MS);
    private final AtomicLong stored = new AtomicLong();
    private final BrokerStats stats = new BrokerStats(stored::get, nowMs::get, ZoneOffset.UTC);

    private void tick(long storedDelta) {
        nowMs.addAndGet(1_000);
        stored.addAndGet(storedDelta);
        stats.sample();
    }

    @Test
    void shouldReportPutAndGetRates() {
        stats.sample();
        for (int i = 0; i < 5; i++) {
            stats.onPut("T", 20);
            stats.onPull("g", "T", 0, 10, 10L * (i + 1));
            tick(20);
        }
        assertEquals("20.00 20.00 20.00", stats.putTps());
        assertEquals("10.00 10.00 10.00", stats.getTransferredTps());
        assertEquals(20, stats.topicPutTps("T"), 1e-9);
        assertEquals(10, stats.consumeTps("g", "T"), 1e-9);
        assertEquals(0, stats.topicPutTps("other"), 1e-9);
        assertEquals(0, stats.consumeTps("g", "other"), 1e-9);
        assertEquals(100, stats.putTotal());
        assertEquals(50, stats.getTotal());
    }

    @Test
    void shouldRememberTheLastPullOffsetPerQueue() {
        stats.onPull("g", "T", 1, 0, 7);
        stats.onPull("g", "T", 1, 3, 10);
        assertEquals(OptionalLong.of(10), stats.pullOffset("g", "T", 1));
        assertEquals(OptionalLong.empty(), stats.pullOffset("g", "T", 2));
        assertEquals(3, stats.getTotal(), "a pull that found nothing adds nothing");
    }

    @Test
    void shouldMoveTheMorningTotalsAtMidnight() {
        stats.onPull("g", "T", 0, 4, 4);
        tick(100); // 23:59:51, 100 stored
        assertEquals(0, stats.putTotalTodayMorning());
        for (int i = 0; i < 10; i++) {
            tick(1); // 23:59:52 .. 00:00:01; the sample at 00:00:00 sees 109
        }
        assertEquals(109, stats.putTotalTodayMorning());
        assertEquals(0, stats.putTotalYesterdayMorning());
        assertEquals(110, stats.putTotal());
        assertEquals(4, stats.getTotalTodayMorning());
        assertEquals(0, stats.getTotalYesterdayMorning());

        nowMs.addAndGet(86_400_000);
        stored.addAndGet(5);
        stats.sample();
        assertEquals(109, stats.putTotalYesterdayMorning());
        assertEquals(115, stats.putTotalTodayMorning());
        assertEquals(4, stats.getTotalYesterdayMorning());

        nowMs.addAndGet(3 * 86_400_000L);
        stats.sample();
        assertEquals(115, stats.putTotalYesterdayMorning(),
                "after days without samples both mornings start from the current total");
    }
}
