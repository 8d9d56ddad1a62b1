package io.sluice.store.index;

import io.sluice.store.DispatchEntry;

/** Argument checks shared by the queue implementations; each failure names the bad value. */
final class Entries {

    private Entries() {
    }

    static void requireThisQueue(DispatchEntry entry, String topic, int queueId) {
        if (entry.queueId() != queueId || !entry.topic().equals(topic)) {
            throw new IllegalArgumentException("entry for " + entry.topic() + "-" + entry.queueId()
                    + " appended to consume queue " + topic + "-" + queueId);
        }
    }

    static void requireValid(long queueOffset, int batchCount, long position, int sizeBytes) {
        if (queueOffset < 0 || batchCount < 1 || position < 0 || sizeBytes <= 0) {
            throw new IllegalArgumentException("invalid entry: queueOffset " + queueOffset + ", batchCount "
                    + batchCount + ", position " + position + ", sizeBytes " + sizeBytes
                    + " (need offset >= 0, batchCount >= 1, position >= 0, sizeBytes > 0)");
        }
    }

    static void requireOffset(long offset) {
        if (offset < 0) {
            throw new IllegalArgumentException("queue offset must be >= 0, was " + offset);
        }
    }

    static void requirePosition(long position) {
        if (position < 0) {
            throw new IllegalArgumentException("CommitLog position must be >= 0, was " + position);
        }
    }

    static void requireTimestamp(long timestampMs) {
        if (timestampMs < 0) {
            throw new IllegalArgumentException("timestamp must be >= 0 ms, was " + timestampMs);
        }
    }
}
