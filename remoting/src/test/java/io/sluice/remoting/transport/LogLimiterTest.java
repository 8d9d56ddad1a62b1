package io.sluice.remoting.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 10, unit = TimeUnit.SECONDS)
class LogLimiterTest {

    @Test
    void shouldAdmitABoundedNumberOfLinesPerWindowAndReportWhatItLeftOut() {
        AtomicLong now = new AtomicLong(1_000);
        AtomicLong suppressed = new AtomicLong();
        LogLimiter limiter = new LogLimiter(2, 100, now::get, suppressed);

        assertEquals(0, limiter.admit());
        assertEquals(0, limiter.admit());
        for (int i = 0; i < 7; i++) {
            assertEquals(LogLimiter.SUPPRESS, limiter.admit());
        }
        assertEquals(7, suppressed.get());

        now.addAndGet(100); // the next window: its first line reports the 7 left out
        assertEquals(7, limiter.admit());
        assertEquals(0, limiter.admit());
        assertEquals(LogLimiter.SUPPRESS, limiter.admit());
        assertEquals(" [suppressed 7 similar lines since the last one]", LogLimiter.suffix(7));
        assertEquals("", LogLimiter.suffix(0));
    }
}
