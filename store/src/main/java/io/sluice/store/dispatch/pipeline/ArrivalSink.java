package io.sluice.store.dispatch.pipeline;

/**
 * Where the {@link CqWriter} reports that a queue received entries, once per chunk per queue touched.
 *
 * <p>Called on the writer thread only.
 */
@FunctionalInterface
interface ArrivalSink {

    /** Must not throw for expected conditions; an exception is counted and logged by the writer. */
    void onArrival(String topic, int queueId, long maxOffset);
}
