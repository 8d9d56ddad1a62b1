package io.sluice.broker.timer;

/**
 * One pending timer: when it is due and where its record lies in the CommitLog.
 *
 * @param deliverMs epoch ms the message is due, >= 0
 * @param position  CommitLog position of the record in the timer topic, >= 0
 */
record TimerKey(long deliverMs, long position) implements Comparable<TimerKey> {

    TimerKey {
        if (deliverMs < 0 || position < 0) {
            throw new IllegalArgumentException("deliverMs " + deliverMs + " and position " + position
                    + " must be >= 0");
        }
    }

    /** Index order: by delivery time, then position. */
    @Override
    public int compareTo(TimerKey other) {
        int byTime = Long.compare(deliverMs, other.deliverMs);
        return byTime != 0 ? byTime : Long.compare(position, other.position);
    }

    byte[] encode() {
        return TimerIndexDescriptor.key(deliverMs, position);
    }

    static TimerKey decode(byte[] key) {
        if (key.length != TimerIndexDescriptor.KEY_BYTES) {
            throw new IllegalArgumentException("a timer key has " + TimerIndexDescriptor.KEY_BYTES + " bytes, not "
                    + key.length);
        }
        return new TimerKey(TimerIndexDescriptor.deliverMs(key), TimerIndexDescriptor.position(key));
    }
}
