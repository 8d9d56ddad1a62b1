package io.sluice.store.dispatch.pipeline;

import io.sluice.store.index.ConsumeQueue;
import java.util.Arrays;

/**
 * The queues a decoder has resolved for the chunk it is decoding, keyed by (topic, queue id): after the first record
 * of a queue in a chunk, the others usually find it here, in memory only the decoding thread writes. Looking each
 * record up in the shared queue table instead costs a cache miss per record on a multi-core machine, because the
 * table's nodes and the queue objects sit next to fields the consume-queue writer updates on every append.
 *
 * <p>Direct-mapped with {@value #SLOTS} slots and no growth: a chunk over a few queues finds all of them here, and a
 * chunk over thousands of queues (where a record's queue was rarely seen earlier in the chunk anyway) pays one
 * probe and one store per record, never a table that grows to the number of queues. A colliding queue replaces the
 * slot's; the caller then resolves it again from the table.
 *
 * <p>Cleared when each chunk's decode ends, so it never serves a queue beyond the chunk that resolved it, and an
 * idle worker keeps no queue reachable.
 *
 * <p>Not thread-safe: one per decoding thread, in its {@link DecodeScratch}.
 */
final class ChunkQueueCache {

    static final int SLOTS = 256;

    private final String[] topics = new String[SLOTS];
    private final int[] queueIds = new int[SLOTS];
    private final ConsumeQueue[] queues = new ConsumeQueue[SLOTS];
    private boolean empty = true;

    /** The queue cached for (topic, queueId), or null if there is none. */
    ConsumeQueue get(String topic, int queueId) {
        int i = slot(topic, queueId);
        ConsumeQueue q = queues[i];
        return q != null && queueIds[i] == queueId && topic.equals(topics[i]) ? q : null;
    }

    /** Caches {@code queue} for (topic, queueId), replacing whatever shared its slot. */
    void put(String topic, int queueId, ConsumeQueue queue) {
        if (queue == null) {
            throw new IllegalArgumentException("no queue to cache for " + topic + "-" + queueId);
        }
        int i = slot(topic, queueId);
        topics[i] = topic;
        queueIds[i] = queueId;
        queues[i] = queue;
        empty = false;
    }

    void clear() {
        if (!empty) {
            Arrays.fill(topics, null);
            Arrays.fill(queues, null);
            empty = true;
        }
    }

    private static int slot(String topic, int queueId) {
        int x = (topic.hashCode() * 31 + queueId) * 0x9E3779B9;
        return (x ^ (x >>> 16)) & (SLOTS - 1);
    }
}
