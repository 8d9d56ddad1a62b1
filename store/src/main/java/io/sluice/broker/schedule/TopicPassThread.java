package io.sluice.broker.schedule;

import io.sluice.store.ArrivalListener;
import io.sluice.store.MessageStore;
import io.sluice.store.thread.AgentHost;
import io.sluice.store.thread.LoopAgent;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.agrona.concurrent.IdleStrategy;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one thread of a service that works in passes over a system topic (delay levels, timers): it runs a pass,
 * sleeps as long as the pass asks, and wakes early when a record arrives in that topic. A pass that throws is
 * counted and logged, and the next one runs after the retry pause.
 *
 * <p>Contract: {@link #start} once; passes run on the thread (an {@link AgentHost}) only; {@link #stop} wakes it,
 * waits for the running pass and says how the thread ended, so that its owner releases what the passes used only
 * once they are over. {@link #start} and {@link #stop} may be called from any thread.
 */
public final class TopicPassThread {

    /** How the thread ended at {@link #stop}. */
    public enum Stopped {
        /** It ran and has ended. */
        ENDED,
        /** It was never started. */
        NEVER_STARTED,
        /** An earlier {@link #stop} ended it. */
        ALREADY,
        /** It did not end within the stop timeout: a pass still runs. */
        STILL_RUNNING
    }

    /** One pass. */
    @FunctionalInterface
    public interface Pass {
        /** Runs one pass and returns how long to sleep before the next, in nanoseconds (0 or less: at once). */
        long run();
    }

    private static final Logger LOG = LoggerFactory.getLogger(TopicPassThread.class);

    private final MessageStore store;
    private final String topic;
    private final String threadName;
    private final Pass pass;
    private final long retryNs;
    private final long stopTimeoutMs;
    private final AtomicLong passErrors = new AtomicLong();
    private final ArrivalListener arrivals = this::onArrival;
    private volatile AgentHost thread;
    private volatile boolean running;
    /** What the last pass asked to sleep, in ns. Pass thread only. */
    private long waitNs;

    /**
     * @param store         whose arrivals to {@code topic} wake the thread
     * @param topic         the system topic the passes read
     * @param threadName    the thread's name, saying what it owns
     * @param pass          one pass
     * @param retryNs       the pause after a pass that threw
     * @param stopTimeoutMs how long {@link #stop} waits for a running pass
     */
    public TopicPassThread(MessageStore store, String topic, String threadName, Pass pass, long retryNs,
                           long stopTimeoutMs) {
        this.store = store;
        this.topic = topic;
        this.threadName = threadName;
        this.pass = pass;
        this.retryNs = retryNs;
        this.stopTimeoutMs = stopTimeoutMs;
    }

    /**
     * Listens for arrivals to the topic and starts the thread.
     *
     * @throws IllegalStateException when already started
     */
    public synchronized void start() {
        if (thread != null) {
            throw new IllegalStateException(threadName + " is already started");
        }
        running = true;
        // Sleeps as long as the pass asked (an arrival in the topic ends the sleep): passes know when work is due.
        AgentHost t = new AgentHost(new LoopAgent(threadName, this::runPass), new PassIdle());
        thread = t;
        store.addArrivalListener(arrivals);
        t.start();
    }

    /** The duty cycle: one pass; a pass that throws is counted and logged here, and retried after the pause. */
    private int runPass() {
        if (!running) {
            waitNs = 0;
            return 0; // stopping: no pass after stop() was called
        }
        try {
            waitNs = pass.run();
        } catch (RuntimeException e) {
            passErrors.incrementAndGet();
            LOG.error("{} pass failed; retrying in {} ms", threadName, retryNs / 1_000_000, e);
            waitNs = retryNs;
        }
        return waitNs > 0 ? 0 : 1;
    }

    /** Parks for the wait the last pass asked for. Pass thread only. */
    private final class PassIdle implements IdleStrategy {
        @Override
        public void idle(int workCount) {
            idle();
        }

        @Override
        public void idle() {
            if (running && waitNs > 0) {
                LockSupport.parkNanos(this, waitNs);
            }
        }

        @Override
        public void reset() {
            // The wait is the pass's.
        }
    }

    private void onArrival(String arrivedTopic, int queueId, long maxOffset) {
        if (topic.equals(arrivedTopic)) {
            AgentHost t = thread;
            if (t != null) {
                t.wakeUp();
            }
        }
    }

    /** Stops listening and the thread, waiting up to the stop timeout for a running pass. Idempotent. */
    public Stopped stop() {
        AgentHost t;
        synchronized (this) {
            t = thread;
            if (t == null) {
                return Stopped.NEVER_STARTED;
            }
            if (!running) {
                return Stopped.ALREADY;
            }
            running = false;
        }
        store.removeArrivalListener(arrivals);
        return t.close(stopTimeoutMs) ? Stopped.ENDED : Stopped.STILL_RUNNING; // logs one that does not stop
    }

    /** Passes that failed with an unexpected exception. */
    public long passErrorCount() {
        return passErrors.get();
    }
}
