package io.sluice.store.dispatch.pipeline;

import io.sluice.store.index.ConsumeQueue;
import java.util.Arrays;

/**
 * The queues a decoder has resolved for the chunk it is decoding, keyed by (topic, queue id): after the first record
 * of a queue in a chunk, the others find it here, in memory only the decoding thread writes. Looking each record up
 * in the shared queue table instead costs a cache miss per record on a multi-core machine, because the table's
 * nodes and the queue objects sit next to fields the consume-queue writer updates on every append.
 *
 * <p>Cleared for every chunk (in time proportional to its size), so it never serves a queue longer than the chunk
 * that resolved it, which is as long as the chunk's own entries hold it anyway. Open addressing with linear probing
 * over a power-of-two table kept at most half full; allocates only when it grows.
 *
 * <p>Not thread-safe: one per decoding thread, in its {@link DecodeScratch}.
 */
final class ChunkQueueCache {

    private String[] topics = new String[256];
    private int[] queueIds = new int[256];
    private ConsumeQueue[] queues = new ConsumeQueue[256];
    /** Slots in use, so that {@link #clear()} touches only them. */
    private int[] used = new int[128];
    private int size;

    /** The queue cached for (topic, queueId), or null if there is none. */
    ConsumeQueue get(String topic, int queueId) {
        int mask = queues.length - 1;
        for (int i = slot(topic, queueId, mask); ; i = (i + 1) & mask) {
            ConsumeQueue q = queues[i];
            if (q == null) {
                return null;
            }
            if (queueIds[i] == queueId && topic.equals(topics[i])) {
                return q;
            }
        }
    }

    /** Caches {@code queue} for (topic, queueId), which must not be cached yet. */
    void put(String topic, int queueId, ConsumeQueue queue) {
        if (queue == null) {
            throw new IllegalArgumentException("no queue to cache for " + topic + "-" + queueId);
        }
        if ((size + 1) * 2 > queues.length) {
            grow();
        }
        int mask = queues.length - 1;
        int i = slot(topic, queueId, mask);
        while (queues[i] != null) {
            i = (i + 1) & mask;
        }
        topics[i] = topic;
        queueIds[i] = queueId;
        queues[i] = queue;
        if (size == used.length) {
            used = Arrays.copyOf(used, used.length * 2);
        }
        used[size++] = i;
    }

    int size() {
        return size;
    }

    void clear() {
        for (int k = 0; k < size; k++) {
            int i = used[k];
            topics[i] = null;
            queues[i] = null;
        }
        size = 0;
    }

    private void grow() {
        String[] oldTopics = topics;
        int[] oldIds = queueIds;
        ConsumeQueue[] oldQueues = queues;
        int[] oldUsed = used;
        int oldSize = size;
        int capacity = oldQueues.length * 2;
        topics = new String[capacity];
        queueIds = new int[capacity];
        queues = new ConsumeQueue[capacity];
        used = new int[Math.max(oldUsed.length, capacity / 2)];
        size = 0;
        for (int k = 0; k < oldSize; k++) {
            int i = oldUsed[k];
            put(oldTopics[i], oldIds[i], oldQueues[i]);
        }
    }

    private static int slot(String topic, int queueId, int mask) {
        int x = (topic.hashCode() * 31 + queueId) * 0x9E3779B9;
        return (x ^ (x >>> 16)) & mask;
    }
}
