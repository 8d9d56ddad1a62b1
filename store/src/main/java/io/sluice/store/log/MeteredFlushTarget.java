package io.sluice.store.log;

import java.io.IOException;
import java.util.Objects;
import org.agrona.concurrent.NanoClock;

/**
 * A {@link FlushTarget} that times each fsync that makes bytes durable and counts it in a {@link FlushMeter}; a
 * failed fsync or one with nothing to force is not counted. Everything else is the wrapped target's.
 *
 * <p>Thread-safety: that of the wrapped target; {@link #flushTo} is called by one thread at a time (the flush
 * agent's contract), which makes it the meter's single writer.
 */
final class MeteredFlushTarget implements FlushTarget {

    private final FlushTarget target;
    private final NanoClock nanoClock;
    private final FlushMeter meter = new FlushMeter();

    /**
     * @param target    the log to force
     * @param nanoClock times the fsyncs
     */
    public MeteredFlushTarget(FlushTarget target, NanoClock nanoClock) {
        this.target = Objects.requireNonNull(target, "target");
        this.nanoClock = Objects.requireNonNull(nanoClock, "nanoClock");
    }

    @Override
    public long writtenPosition() {
        return target.writtenPosition();
    }

    @Override
    public long flushedPosition() {
        return target.flushedPosition();
    }

    @Override
    public void flushTo(long position) throws IOException {
        long from = target.flushedPosition();
        if (position <= from) {
            return;
        }
        long startNs = nanoClock.nanoTime();
        target.flushTo(position);
        meter.record(position - from, nanoClock.nanoTime() - startNs);
    }

    /** The fsyncs counted so far. Any thread. */
    public FlushStats stats() {
        return meter.snapshot();
    }
}
