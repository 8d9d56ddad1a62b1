package io.sluice.store.log;

import java.io.IOException;
import java.util.Objects;
import io.sluice.store.thread.AgentHost;
import io.sluice.store.thread.IntervalIdleStrategy;
import io.sluice.store.thread.LoopAgent;
import java.util.concurrent.TimeUnit;
import org.agrona.concurrent.NanoClock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * ASYNC flush: every {@code flushIntervalMs} force the log when at least {@code flushMinPages} pages are dirty,
 * and everything dirty at least every {@code flushThoroughIntervalMs}. Appends are acknowledged without waiting.
 *
 * <p>Owns one thread ({@code sluice-flush-async}, an {@link AgentHost}); it is the only caller of
 * {@link FlushTarget#flushTo(long)} while running. Public methods are thread-safe.
 */
final class AsyncFlushAgent implements FlushAgent {

    private static final Logger LOG = LoggerFactory.getLogger(AsyncFlushAgent.class);

    private final FlushTarget target;
    private final StoreFailureHandler failureHandler;
    private final NanoClock nanoClock;
    private final long intervalNs;
    private final long thoroughIntervalNs;
    private final int minPages;
    private final AgentHost thread;
    private long lastThoroughFlushNs;

    AsyncFlushAgent(FlushSettings settings, FlushTarget target, StoreFailureHandler failureHandler,
                    NanoClock nanoClock) {
        this.target = Objects.requireNonNull(target, "target");
        this.failureHandler = Objects.requireNonNull(failureHandler, "failureHandler");
        this.nanoClock = Objects.requireNonNull(nanoClock, "nanoClock");
        this.intervalNs = TimeUnit.MILLISECONDS.toNanos(settings.flushIntervalMs());
        this.thoroughIntervalNs = TimeUnit.MILLISECONDS.toNanos(settings.flushThoroughIntervalMs());
        this.minPages = settings.flushMinPages();
        // Paced by the interval whatever a cycle flushed: the policy is "at most one flush per interval".
        this.thread = new AgentHost(new LoopAgent("sluice-flush-async", () -> {
            doWork();
            return 0;
        }), new IntervalIdleStrategy(intervalNs));
    }

    @Override
    public void start() {
        lastThoroughFlushNs = nanoClock.nanoTime();
        thread.start();
    }

    @Override
    public boolean offer(FlushWaiter waiter) {
        return false;
    }

    @Override
    public void onAppended() {
        // Interval driven: nothing to wake.
    }

    /** One duty cycle: flush if enough is dirty or the thorough interval passed. Returns bytes made durable. */
    long doWork() {
        if (failureHandler.hasFailed()) {
            return 0;
        }
        long written = target.writtenPosition();
        long flushed = target.flushedPosition();
        if (written <= flushed) {
            return 0;
        }
        long nowNs = nanoClock.nanoTime();
        boolean thorough = nowNs - lastThoroughFlushNs >= thoroughIntervalNs;
        long dirtyPages = written / FlushSettings.PAGE_BYTES - flushed / FlushSettings.PAGE_BYTES;
        if (!thorough && dirtyPages < minPages) {
            return 0;
        }
        if (thorough) {
            lastThoroughFlushNs = nowNs;
        }
        return flush(written, flushed);
    }

    private long flush(long written, long flushed) {
        try {
            target.flushTo(written);
            return written - flushed;
        } catch (IOException e) {
            failureHandler.onIoFailure("fsync", e);
            return 0;
        }
    }

    @Override
    public void close() {
        if (!thread.isRunning()) {
            return;
        }
        if (!thread.close(AgentHost.DEFAULT_STOP_TIMEOUT_MS)) {
            return; // a flush still runs (logged): it owns the target, so no final flush here
        }
        long written = target.writtenPosition();
        long flushed = target.flushedPosition();
        if (written > flushed && !failureHandler.hasFailed()) {
            flush(written, flushed);
        }
        LOG.debug("async flush agent stopped at flushed position {}", target.flushedPosition());
    }
}
