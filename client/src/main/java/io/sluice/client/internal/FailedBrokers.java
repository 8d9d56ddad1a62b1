package io.sluice.client.internal;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * Brokers that recently failed a send, avoided for {@code isolationMs} while another broker can take the send.
 * Thread-safe (a concurrent map of broker name to the end of its isolation).
 */
public final class FailedBrokers {
    private final long isolationNs;
    private final LongSupplier nanoClock;
    private final ConcurrentHashMap<String, Long> isolatedUntilNs = new ConcurrentHashMap<>();

    /** @param isolationMs how long a failed broker is avoided; 0 turns avoidance off */
    public FailedBrokers(long isolationMs, LongSupplier nanoClock) {
        this.isolationNs = TimeUnit.MILLISECONDS.toNanos(isolationMs);
        this.nanoClock = nanoClock;
    }

    /** Records a failure of {@code brokerName}. */
    public void failed(String brokerName) {
        if (isolationNs > 0) {
            isolatedUntilNs.put(brokerName, nanoClock.getAsLong() + isolationNs);
        }
    }

    /** Records a success of {@code brokerName}, ending its isolation. */
    public void succeeded(String brokerName) {
        if (!isolatedUntilNs.isEmpty()) {
            isolatedUntilNs.remove(brokerName);
        }
    }

    /** True while {@code brokerName} is isolated. */
    public boolean isIsolated(String brokerName) {
        if (isolatedUntilNs.isEmpty()) {
            return false;
        }
        Long until = isolatedUntilNs.get(brokerName);
        if (until == null) {
            return false;
        }
        if (nanoClock.getAsLong() - until >= 0) {
            isolatedUntilNs.remove(brokerName, until);
            return false;
        }
        return true;
    }
}
