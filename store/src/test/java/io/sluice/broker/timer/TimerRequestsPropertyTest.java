package io.sluice.broker.timer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.format.MessageProperties;
import java.math.BigInteger;
import java.util.LinkedHashMap;
import java.util.Map;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.AlphaChars;
import net.jqwik.api.constraints.LongRange;
import net.jqwik.api.constraints.StringLength;

/**
 * A send's timer properties against a model in unbounded arithmetic: relative delays count from receipt (none at
 * or below zero), huge ones saturate rather than wrap into the past, a delivery beyond the maximum delay is
 * refused naming the property, and the first property of Apache's order counts.
 */
class TimerRequestsPropertyTest {

    private static final BigInteger MAX = BigInteger.valueOf(Long.MAX_VALUE);

    @Property(tries = 1_000)
    void shouldMatchTheModelForEachProperty(@ForAll long value, @ForAll @LongRange(min = 0, max = 1L << 50) long now,
                                            @ForAll @LongRange(min = 0, max = 1L << 40) long maxDelayMs) {
        check(MessageProperties.TIMER_DELIVER_MS, value, BigInteger.valueOf(value), now, maxDelayMs);
        BigInteger seconds = BigInteger.valueOf(value).multiply(BigInteger.valueOf(1_000)).min(MAX);
        check(MessageProperties.TIMER_DELAY_SEC, value, relative(seconds, now), now, maxDelayMs);
        check(MessageProperties.TIMER_DELAY_MS, value, relative(BigInteger.valueOf(value), now), now, maxDelayMs);
    }

    @Property(tries = 300)
    void shouldTakeTheFirstPropertyOfApachesOrder(@ForAll @LongRange(min = 0, max = 1_000) long delay,
                                                  @ForAll @LongRange(min = 0, max = 1L << 40) long now) {
        long deliverMs = now + 5;
        Map<String, String> all = new LinkedHashMap<>();
        all.put(MessageProperties.TIMER_DELAY_MS, Long.toString(delay));
        all.put(MessageProperties.TIMER_DELAY_SEC, Long.toString(delay));
        all.put(MessageProperties.TIMER_DELIVER_MS, Long.toString(deliverMs));
        assertEquals(new TimerRequests.At(deliverMs, MessageProperties.TIMER_DELIVER_MS),
                TimerRequests.admit(MessageProperties.encode(all), now, 1_000_000));
        all.remove(MessageProperties.TIMER_DELIVER_MS);
        assertEquals(new TimerRequests.At(now + delay * 1_000, MessageProperties.TIMER_DELAY_SEC),
                TimerRequests.admit(MessageProperties.encode(all), now, 1_000_000));
        assertInstanceOf(TimerRequests.NotTimer.class,
                TimerRequests.admit(MessageProperties.encode(Map.of("KEYS", "k")), now, 1_000_000));
    }

    @Property(tries = 200)
    void shouldRefuseANonNumberNamingTheProperty(@ForAll @AlphaChars @StringLength(min = 1, max = 8) String text) {
        TimerRequests.Admission admission = TimerRequests.admit(
                MessageProperties.encode(Map.of(MessageProperties.TIMER_DELAY_SEC, text)), 0, 1_000);
        TimerRequests.Refused refused = assertInstanceOf(TimerRequests.Refused.class, admission);
        assertTrue(refused.remark().contains(MessageProperties.TIMER_DELAY_SEC), refused.remark());
    }

    /** A relative delay's delivery time: receipt for none at or below zero, else receipt plus it, saturated. */
    private static BigInteger relative(BigInteger delayMs, long now) {
        BigInteger received = BigInteger.valueOf(now);
        return delayMs.signum() <= 0 ? received : received.add(delayMs).min(MAX);
    }

    private static void check(String name, long value, BigInteger deliverMs, long now, long maxDelayMs) {
        TimerRequests.Admission admission = TimerRequests.admit(
                MessageProperties.encode(Map.of(name, Long.toString(value))), now, maxDelayMs);
        BigInteger ahead = deliverMs.subtract(BigInteger.valueOf(now));
        if (ahead.compareTo(BigInteger.valueOf(maxDelayMs)) > 0) {
            TimerRequests.Refused refused = assertInstanceOf(TimerRequests.Refused.class, admission, name);
            assertTrue(refused.remark().contains(name), refused.remark());
        } else {
            assertEquals(new TimerRequests.At(deliverMs.max(BigInteger.ZERO).longValueExact(), name), admission,
                    name + "=" + value);
        }
    }
}
