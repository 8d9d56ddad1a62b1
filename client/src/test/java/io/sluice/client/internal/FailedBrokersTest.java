package io.sluice.client.internal;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Send-failure isolation: how long a broker is avoided and what ends it, on a clock the test moves. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class FailedBrokersTest {

    private final AtomicLong nowNs = new AtomicLong(Long.MAX_VALUE - TimeUnit.MILLISECONDS.toNanos(50));

    @Test
    void aFailedBrokerIsAvoidedForTheIsolationTimeAndNoLonger() {
        FailedBrokers brokers = new FailedBrokers(100, nowNs::get);
        assertFalse(brokers.isIsolated("a"));
        brokers.failed("a");
        assertTrue(brokers.isIsolated("a"));
        assertFalse(brokers.isIsolated("b"), "only the broker that failed");
        advanceMs(99);
        assertTrue(brokers.isIsolated("a"), "1 ms before the end");
        advanceMs(1);
        assertFalse(brokers.isIsolated("a"), "ends on time, across the clock's wrap-around");
    }

    @Test
    void aSuccessEndsTheIsolationAtOnce() {
        FailedBrokers brokers = new FailedBrokers(1_000, nowNs::get);
        brokers.failed("a");
        brokers.failed("b");
        brokers.succeeded("a");
        assertFalse(brokers.isIsolated("a"));
        assertTrue(brokers.isIsolated("b"));
    }

    @Test
    void aNewFailureRestartsTheIsolation() {
        FailedBrokers brokers = new FailedBrokers(100, nowNs::get);
        brokers.failed("a");
        advanceMs(80);
        brokers.failed("a");
        advanceMs(80);
        assertTrue(brokers.isIsolated("a"), "80 ms after the second failure");
        advanceMs(20);
        assertFalse(brokers.isIsolated("a"));
    }

    @Test
    void zeroIsolationNeverAvoidsABroker() {
        FailedBrokers brokers = new FailedBrokers(0, nowNs::get);
        brokers.failed("a");
        assertFalse(brokers.isIsolated("a"));
    }

    private void advanceMs(long ms) {
        nowNs.addAndGet(TimeUnit.MILLISECONDS.toNanos(ms));
    }
}
