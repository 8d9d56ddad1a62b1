package io.sluice.benchmark.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;

class DispatchLagSamplerTest {

    private final List<String> log = new CopyOnWriteArrayList<>();

    @Test
    void recordsBothUnitsAndCountsEveryFailure() throws Exception {
        AtomicInteger calls = new AtomicInteger();
        DispatchLagSampler sampler = new DispatchLagSampler("sluice", () -> {
            int n = calls.incrementAndGet();
            if (n % 3 == 0) {
                throw new IllegalStateException("no answer " + n);
            }
            return new DispatchLagProbe.Reading(n * 1000L, OptionalLong.of(n));
        }, 1, log::add);
        sampler.start();
        // The sampler starts read 31 only after it has counted the outcome of read 30 (the tenth failure); a
        // read still in flight when stop() is called is abandoned, so waiting for 30 reads is not enough.
        await(() -> calls.get() >= 31);
        DispatchLag lag = sampler.stop();

        assertTrue(lag.failures() >= 10, "failures: " + lag);
        assertTrue(lag.samples() >= 20, "samples: " + lag);
        assertEquals("java.lang.IllegalStateException: no answer 3", lag.firstFailure());
        assertEquals(1, log.size(), "only the first failure is logged: " + log);
        DispatchLag.Figures bytes = lag.bytes().orElseThrow();
        DispatchLag.Figures ms = lag.ms().orElseThrow();
        assertEquals(lag.samples(), bytes.count());
        assertEquals(lag.samples(), ms.count());
        assertTrue(ms.p50() > 0 && ms.p50() <= ms.p99() && ms.p99() <= ms.max(), "ms: " + ms);
        assertTrue(bytes.max() >= 1000L * (calls.get() - 2) * 0.999, "bytes max " + bytes.max());
    }

    @Test
    void millisecondsStayAbsentWhenTheBrokerReportsBytesOnly() throws Exception {
        AtomicInteger calls = new AtomicInteger();
        DispatchLagSampler sampler = new DispatchLagSampler("rocketmq", () -> {
            calls.incrementAndGet();
            return DispatchLagProbe.parse(Map.of("dispatchBehindBytes", "0"));
        }, 1, log::add);
        sampler.start();
        await(() -> calls.get() >= 5);
        DispatchLag lag = sampler.stop();

        assertEquals(Optional.empty(), lag.ms());
        assertEquals(0, lag.bytes().orElseThrow().max());
        assertEquals(0, lag.failures());
        assertNull(lag.firstFailure());
        assertFalse(RunResultTest.json(Optional.of(lag)).containsKey("dispatchLagMs99pct"));
        assertEquals(0L, RunResultTest.json(Optional.of(lag)).get("dispatchLagBytes99pct"));
    }

    @Test
    void aBrokerThatNeverAnswersLeavesOnlyFailures() throws Exception {
        AtomicInteger calls = new AtomicInteger();
        DispatchLagSampler sampler = new DispatchLagSampler("sluice", () -> {
            calls.incrementAndGet();
            throw new IllegalStateException("connection refused");
        }, 1, log::add);
        sampler.start();
        await(() -> calls.get() >= 4); // the fourth read starts after the third failure was counted
        DispatchLag lag = sampler.stop();

        assertEquals(0, lag.samples());
        assertTrue(lag.failures() >= 3, "failures: " + lag);
        assertEquals(Optional.empty(), lag.bytes());
        Map<String, Object> json = RunResultTest.json(Optional.of(lag));
        assertEquals(lag.failures(), json.get("dispatchLagSampleFailures"));
        assertFalse(json.containsKey("dispatchLagBytes99pct"), "no figures without a sample: " + json);
    }

    @Test
    void stopWithoutStartIsAnError() {
        DispatchLagSampler sampler = new DispatchLagSampler("sluice",
                () -> new DispatchLagProbe.Reading(0, OptionalLong.empty()), 50, log::add);
        assertThrows(IllegalStateException.class, sampler::stop);
    }

    private static void await(BooleanSupplier condition) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!condition.getAsBoolean()) {
            assertTrue(System.nanoTime() - deadline < 0, "condition not met within 10 s");
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
        }
    }
}
