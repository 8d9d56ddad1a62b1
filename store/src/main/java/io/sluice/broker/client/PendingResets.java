package io.sluice.broker.client;

import java.util.concurrent.ConcurrentHashMap;

/**
 * Consumer offsets reset by an admin while the group is online (RocketMQ 5's server-side reset): the next pull of
 * each reset queue is answered PULL_OFFSET_MOVED with the new offset, so the consumer drops what it holds for the
 * queue and continues there. Until that pull, offset commits of the queue are ignored, since they carry the
 * position from before the reset.
 *
 * <p>Thread-safe: one concurrent map; admin threads add, pull and offset threads take and test. An entry lives
 * until the queue's next pull or until its group is deleted.
 */
public final class PendingResets {

    /** What {@link #take} answers when the queue has no pending reset. */
    public static final long NONE = -1;

    private final ConcurrentHashMap<Key, Long> offsets = new ConcurrentHashMap<>();

    /** Records that the next pull of the queue by {@code group} must move to {@code offset} (>= 0). */
    public void put(String group, String topic, int queueId, long offset) {
        if (offset < 0) {
            throw new IllegalArgumentException("reset offset " + offset + " of " + group + "/" + topic + "/"
                    + queueId + " must be >= 0");
        }
        offsets.put(new Key(group, topic, queueId), offset);
    }

    /** Removes and returns the pending offset of the queue, or {@link #NONE}. */
    public long take(String group, String topic, int queueId) {
        Long offset = offsets.remove(new Key(group, topic, queueId));
        return offset == null ? NONE : offset;
    }

    /** True while the queue has a reset its consumer has not yet been told of. */
    public boolean isPending(String group, String topic, int queueId) {
        return offsets.containsKey(new Key(group, topic, queueId));
    }

    /** Forgets every pending reset of {@code group}. */
    public void dropGroup(String group) {
        offsets.keySet().removeIf(k -> k.group.equals(group));
    }

    private record Key(String group, String topic, int queueId) {
    }
}
