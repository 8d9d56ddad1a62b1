package io.sluice.remoting.thread;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The thread of a periodic controller-mode duty: the leader's election scan, a broker's heartbeat and role round.
 *
 * <p>One named thread. Start: {@link #start}. Duty cycle: every {@code intervalMs}, one round (given the
 * wall-clock time); a round that throws is logged and the next one runs. Idle: it sleeps out the rest of the
 * interval. Failures a round reports ({@link #reportFailure}) are logged once per streak. Stop: {@link #close}
 * wakes it and waits for the round in progress.
 */
public final class RoundAgent implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(RoundAgent.class);
    private static final long STOP_TIMEOUT_MS = 30_000;

    private final LongConsumer round;
    private final long intervalMs;
    private final Thread thread;
    private volatile boolean running;
    private boolean failing;

    /**
     * @param threadName what the thread owns, e.g. {@code sluice-broker-role-agent}
     * @param round      one round, given {@code System.currentTimeMillis()}
     */
    public RoundAgent(String threadName, long intervalMs, LongConsumer round) {
        this.round = round;
        this.intervalMs = intervalMs;
        this.thread = new Thread(this::run, threadName);
        this.thread.setDaemon(true);
    }

    public void start() {
        running = true;
        thread.start();
    }

    private void run() {
        while (running) {
            long startNs = System.nanoTime();
            try {
                round.accept(System.currentTimeMillis());
            } catch (RuntimeException e) {
                LOG.error("{}: round failed", thread.getName(), e);
            }
            long leftNs = TimeUnit.MILLISECONDS.toNanos(intervalMs) - (System.nanoTime() - startNs);
            if (running && leftNs > 0) {
                LockSupport.parkNanos(this, leftNs);
            }
        }
    }

    /** A round could not do its work; logged at the first failure of a streak. On the agent's thread. */
    public void reportFailure(String what) {
        if (!failing) {
            LOG.warn("{}: {}; retrying every {} ms", thread.getName(), what, intervalMs);
        }
        failing = true;
    }

    /** A round worked; ends a failure streak. On the agent's thread. */
    public void reportSuccess() {
        if (failing) {
            LOG.info("{}: working again", thread.getName());
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
