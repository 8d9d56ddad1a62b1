package io.sluice.store.log;

import java.io.IOException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The CommitLog as seen by its flush agent: forces the segments overlapping {@code [flushed, position)}.
 *
 * <p>Thread-safety: {@link #flushTo} and {@link #truncate} are serialized by this object's monitor (the flush
 * agent's thread, or the log itself during recovery and truncation); positions are read lock-free.
 */
final class LogFlushTarget implements FlushTarget {

    private final SegmentChain chain;
    private final PublishedEnd written;
    private final AtomicLong flushed = new AtomicLong();
    private final ForceHook forceHook;

    LogFlushTarget(SegmentChain chain, PublishedEnd written, ForceHook forceHook) {
        this.chain = chain;
        this.written = written;
        this.forceHook = forceHook;
    }

    @Override
    public long writtenPosition() {
        return written.visible();
    }

    @Override
    public long flushedPosition() {
        return flushed.get();
    }

    @Override
    public synchronized void flushTo(long position) throws IOException {
        long from = flushed.get();
        if (position <= from) {
            return;
        }
        forceHook.beforeForce(from, position);
        for (MappedSegment s : chain.snapshot()) {
            if (s.endPosition() <= from) {
                continue;
            }
            if (s.startPosition() >= position) {
                break;
            }
            s.force((int) (Math.max(from, s.startPosition()) - s.startPosition()),
                    (int) (Math.min(position, s.endPosition()) - s.startPosition()));
        }
        flushed.set(position);
    }

    /** Lowers the flushed position after truncation, or sets it after recovery. */
    synchronized void truncate(long position) {
        flushed.set(Math.min(flushed.get(), position));
    }

    /** Sets the flushed position (recovery: everything found on disk is durable). */
    synchronized void reset(long position) {
        flushed.set(position);
    }
}
