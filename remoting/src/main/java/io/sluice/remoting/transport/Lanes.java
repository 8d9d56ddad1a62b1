package io.sluice.remoting.transport;

import io.netty.util.concurrent.DefaultEventExecutor;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.concurrent.EventExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The ordered lanes that run request handlers: one single-thread executor each, fed through a lock-free MPSC
 * queue. Every connection is pinned to one lane on creation (round robin), so its requests run in arrival order
 * while lanes run in parallel. Thread-safe.
 */
final class Lanes {
    private final EventExecutor[] lanes;
    private final AtomicInteger nextLane = new AtomicInteger();

    Lanes(String name, int laneCount) {
        lanes = new EventExecutor[laneCount];
        DefaultThreadFactory threads = new DefaultThreadFactory(name, true);
        for (int i = 0; i < laneCount; i++) {
            lanes[i] = new DefaultEventExecutor(threads);
        }
    }

    /** The lane for a new connection. */
    EventExecutor pin() {
        return lanes[Math.floorMod(nextLane.getAndIncrement(), lanes.length)];
    }

    /** Stops every lane after the tasks already queued, waiting up to {@code timeoutMs} for each. */
    void shutdown(long timeoutMs) {
        for (EventExecutor lane : lanes) {
            lane.shutdownGracefully(0, timeoutMs, TimeUnit.MILLISECONDS);
        }
        for (EventExecutor lane : lanes) {
            lane.terminationFuture().awaitUninterruptibly(timeoutMs);
        }
    }
}
