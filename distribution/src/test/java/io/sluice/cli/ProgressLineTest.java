package io.sluice.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The live rate line of produce and consume: messages and failures counted from any thread, and the closing line
 * with the totals, the average rate and the failures, whatever the locale.
 */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class ProgressLineTest {

    private static final Pattern TOTAL = Pattern.compile(
            "total: ([\\d,]+) sent in ([\\d.]+) s \\(([\\d,]+) msg/s, ([\\d.]+) MiB/s\\), ([\\d,]+) failed");

    @Test
    void closingPrintsTheTotalsCountedFromEveryThread() throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        ProgressLine line = new ProgressLine("sent", out, () -> "p99 1 ms");
        CountDownLatch done = new CountDownLatch(4);
        for (int t = 0; t < 4; t++) {
            Thread counter = new Thread(() -> {
                for (int i = 0; i < 2_500; i++) {
                    line.add(1_024);
                }
                line.fail();
                done.countDown();
            }, "counter-" + t);
            counter.start();
        }
        assertTrue(done.await(5, TimeUnit.SECONDS));
        assertEquals(10_000, line.messages());
        assertEquals(4, line.failures());
        line.close();

        String printed = bytes.toString(StandardCharsets.UTF_8);
        Matcher total = TOTAL.matcher(printed);
        assertTrue(total.find(), printed);
        assertEquals("10,000", total.group(1));
        assertEquals("4", total.group(5));
        double seconds = Double.parseDouble(total.group(2));
        assertTrue(seconds >= 0 && seconds < 10, printed);
        assertTrue(printed.strip().endsWith("4 failed"), "the totals line comes last: " + printed);
    }
}
