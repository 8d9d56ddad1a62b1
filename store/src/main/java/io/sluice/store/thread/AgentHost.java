package io.sluice.store.thread;

import java.util.Objects;
import java.util.concurrent.locks.LockSupport;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.IdleStrategy;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs one Agrona {@link Agent} on its own daemon thread named by the agent's {@link Agent#roleName()}: the
 * broker's one thread contract.
 *
 * <ul>
 *   <li><b>Start</b>: {@link #start()} once; {@link Agent#onStart()} runs first on the new thread.</li>
 *   <li><b>Duty cycle</b>: {@link Agent#doWork()} again and again; it returns the work done (0: none).</li>
 *   <li><b>Idle</b>: after each cycle the owner's {@link IdleStrategy} gets the work count; {@link #wakeUp()}
 *       ends a park early.</li>
 *   <li><b>Errors</b>: an exception out of a cycle is counted and logged by a {@link CountingErrorHandler} and
 *       the loop goes on; an {@link Error} is logged the same way and ends the thread.</li>
 *   <li><b>Stop</b>: {@link #close(long)} ends idling at once, lets the running cycle finish, runs
 *       {@link Agent#onClose()} on the agent's thread and waits for the thread up to a timeout. It never
 *       interrupts the thread (an interrupt closes a {@code FileChannel} in use); an agent whose cycle blocks on
 *       something else than a park (a socket, a queue) must bound that wait or have its owner end it.</li>
 * </ul>
 *
 * <p>Thread-safe: start, wake-up and close from any thread.
 */
public final class AgentHost implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(AgentHost.class);
    /** How long {@link #close()} waits for the thread. */
    public static final long DEFAULT_STOP_TIMEOUT_MS = 10_000;

    private enum State { NEW, RUNNING, CLOSED }

    private final Agent agent;
    private final StoppableIdle idle;
    private final CountingErrorHandler errors;
    private State state = State.NEW;
    private volatile AgentRunner runner;
    /** The agent's thread from {@link #start()} until {@link #close}. */
    private volatile Thread thread;

    /**
     * @param agent the loop; its role name names the thread and says what the thread owns
     * @param idle  what the thread does after a cycle (the owner says why this one, beside the call)
     */
    public AgentHost(Agent agent, IdleStrategy idle) {
        this.agent = Objects.requireNonNull(agent, "agent");
        this.idle = new StoppableIdle(Objects.requireNonNull(idle, "idle"));
        this.errors = new CountingErrorHandler(agent.roleName());
    }

    /**
     * Starts the thread.
     *
     * @throws IllegalStateException if already started or closed
     */
    public synchronized void start() {
        if (state != State.NEW) {
            throw new IllegalStateException(agent.roleName() + " is started once; it is " + state);
        }
        state = State.RUNNING;
        AgentRunner r = new AgentRunner(idle, errors, null, agent);
        runner = r;
        AgentRunner.startOnThread(r, this::newThread);
    }

    /** Creates the agent's thread and remembers it, so that it can be woken and watched from the start. */
    private Thread newThread(Runnable body) {
        Thread t = new Thread(body);
        thread = t;
        t.setDaemon(true);
        // The error itself was logged by the error handler; this says the thread is gone.
        t.setUncaughtExceptionHandler((th, e) -> LOG.error("{} stopped after an unrecoverable error: {}",
                th.getName(), e.toString()));
        return t;
    }

    /** Ends the thread's current park, if any, so it runs a cycle now. Cheap; any thread. */
    public void wakeUp() {
        Thread t = thread();
        if (t != null) {
            LockSupport.unpark(t);
        }
    }

    /** The agent's thread from {@link #start()} until {@link #close}, else null. */
    public Thread thread() {
        return thread;
    }

    /** Whether {@link #start()} was called and {@link #close} not yet. */
    public synchronized boolean isRunning() {
        return state == State.RUNNING;
    }

    /** Exceptions out of the agent's cycles so far. */
    public long errorCount() {
        return errors.errorCount();
    }

    /** {@link #close(long)} with {@link #DEFAULT_STOP_TIMEOUT_MS}. */
    @Override
    public void close() {
        close(DEFAULT_STOP_TIMEOUT_MS);
    }

    /**
     * Stops the loop after its current cycle and waits for the thread. Idempotent; a host never started is just
     * marked closed.
     *
     * @return true if the thread has ended (or never ran), false if it still ran after {@code timeoutMs} (logged)
     */
    public boolean close(long timeoutMs) {
        AgentRunner r;
        synchronized (this) {
            State previous = state;
            state = State.CLOSED;
            r = runner;
            if (previous != State.RUNNING) {
                return r == null || r.isClosed();
            }
        }
        idle.stopping = true;
        Thread t = thread;
        thread = null;
        LockSupport.unpark(t);
        int joinMs = (int) Math.max(1, Math.min(Integer.MAX_VALUE, timeoutMs));
        try {
            r.close(joinMs, stuck -> {
                throw new StopTimedOut();
            });
        } catch (StopTimedOut e) {
            LOG.error("{} did not stop within {} ms", agent.roleName(), timeoutMs);
            return false;
        }
        return true;
    }

    /** Ends {@link AgentRunner#close(int, java.util.function.Consumer)}'s wait at its first timeout. */
    private static final class StopTimedOut extends RuntimeException {
        private static final long serialVersionUID = 1L;

        StopTimedOut() {
            super(null, null, false, false);
        }
    }

    /**
     * The owner's idle strategy, except that once stopping it no longer parks: the stop flag of the runner is set
     * just after, and a park begun before it would otherwise hold the stop up for a whole period.
     */
    private static final class StoppableIdle implements IdleStrategy {
        private final IdleStrategy delegate;
        private volatile boolean stopping;

        StoppableIdle(IdleStrategy delegate) {
            this.delegate = delegate;
        }

        @Override
        public void idle(int workCount) {
            if (!stopping) {
                delegate.idle(workCount);
            } else {
                Thread.onSpinWait();
            }
        }

        @Override
        public void idle() {
            if (!stopping) {
                delegate.idle();
            }
        }

        @Override
        public void reset() {
            delegate.reset();
        }

        @Override
        public String alias() {
            return delegate.alias();
        }
    }
}
