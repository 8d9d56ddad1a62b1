package io.sluice.broker;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The thread that owns a controller-mode broker's role ({@link FailoverBroker}).
 *
 * <p>Thread {@code sluice-broker-role-agent}. Start: {@link #start}. Duty cycle: every {@code intervalMs}, one
 * heartbeat round ({@code round}, given the wall-clock time): heartbeat, then any role change or in-sync set
 * report the answer calls for. Idle: it sleeps out the rest of the interval. Failures are logged once per streak.
 * Stop: {@link #close} wakes it and waits for the round in progress.
 */
final class RoleAgent implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(RoleAgent.class);
    private static final long STOP_TIMEOUT_MS = 30_000;

    private final LongConsumer round;
    private final long intervalMs;
    private final Thread thread;
    private volatile boolean running;
    private boolean failing;

    RoleAgent(LongConsumer round, long intervalMs) {
        this.round = round;
        this.intervalMs = intervalMs;
        this.thread = new Thread(this::run, "sluice-broker-role-agent");
        this.thread.setDaemon(true);
    }

    void start() {
        running = true;
        thread.start();
    }

    private void run() {
        while (running) {
            long startNs = System.nanoTime();
            try {
                round.accept(System.currentTimeMillis());
            } catch (RuntimeException e) {
                LOG.error("role agent round failed", e);
            }
            long leftNs = TimeUnit.MILLISECONDS.toNanos(intervalMs) - (System.nanoTime() - startNs);
            if (running && leftNs > 0) {
                LockSupport.parkNanos(this, leftNs);
            }
        }
    }

    /** A round could not do its work; logged at the first failure of a streak. On the agent thread. */
    void reportFailure(String what) {
        if (!failing) {
            LOG.warn("{}; retrying every {} ms", what, intervalMs);
        }
        failing = true;
    }

    /** A round worked; ends a failure streak. On the agent thread. */
    void reportSuccess() {
        if (failing) {
            LOG.info("the controller answers again");
        }
        failing = false;
    }

    @Override
    public void close() {
        if (!running) {
            return;
        }
        running = false;
        LockSupport.unpark(thread);
        try {
            thread.join(STOP_TIMEOUT_MS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
