package io.sluice.store.dispatch.pipeline;

import io.sluice.store.index.ConsumeQueue;
import java.util.Arrays;

/**
 * An identity set of consume queues, cleared in time proportional to its size: the decoder's tool for listing the
 * distinct queues a chunk touches. Open addressing with linear probing over a power-of-two table kept at most
 * half full; reused chunk after chunk, so it allocates only when it grows.
 *
 * <p>Not thread-safe: one per decoding thread.
 */
final class QueueSet {

    private ConsumeQueue[] table = new ConsumeQueue[256];
    /** Slots in use, so that {@link #clear()} touches only them. */
    private int[] used = new int[128];
    private int size;

    /** Adds {@code queue}; true if it was not present. */
    boolean add(ConsumeQueue queue) {
        if (size * 2 >= table.length) {
            rehash();
        }
        int mask = table.length - 1;
        int i = mix(System.identityHashCode(queue)) & mask;
        while (true) {
            ConsumeQueue q = table[i];
            if (q == null) {
                table[i] = queue;
                if (size == used.length) {
                    used = Arrays.copyOf(used, used.length * 2);
                }
                used[size++] = i;
                return true;
            }
            if (q == queue) {
                return false;
            }
            i = (i + 1) & mask;
        }
    }

    int size() {
        return size;
    }

    void clear() {
        for (int k = 0; k < size; k++) {
            table[used[k]] = null;
        }
        size = 0;
    }

    private void rehash() {
        ConsumeQueue[] old = table;
        int[] oldUsed = used;
        int oldSize = size;
        table = new ConsumeQueue[old.length * 2];
        used = new int[Math.max(oldUsed.length, table.length / 2)];
        size = 0;
        for (int k = 0; k < oldSize; k++) {
            add(old[oldUsed[k]]);
        }
    }

    /** Spreads identity hashes, whose low bits are not always well mixed. */
    private static int mix(int h) {
        int x = h * 0x9E3779B9;
        return x ^ (x >>> 16);
    }
}
