package io.sluice.broker.transaction;

/**
 * What the transaction thread knows of each half message (by queue offset in the half topic): decided (it has an
 * outcome), or the number of check-backs sent so far. Everything below {@link #floor()} is decided; from the
 * floor on, one {@code short} per half message up to the newest one decided or checked; offsets beyond are
 * undecided and unchecked.
 *
 * <p>Bounded: the floor is the oldest unresolved half message, and an unresolved half message is given up after
 * {@code transactionCheckMax} checks, so the window spans at most {@code transactionTimeOut} plus that many check
 * intervals of transactional traffic, at 2 bytes per half message.
 *
 * <p>Not thread-safe: owned by the transaction thread.
 */
final class HalfWindow {

    /** Slot value of a decided half message; other values are check counts. */
    private static final short DECIDED = -1;
    /** Decided slots at the front are dropped once there are this many and they fill half the array. */
    private static final int COMPACT_SLOTS = 4096;
    private static final int MAX_SLOTS = Integer.MAX_VALUE - 8;

    /** Offset of {@code slots[0]}. */
    private long base;
    private short[] slots = new short[1024];
    /** Slots in use. */
    private int size;
    /** Index of the first slot that is not decided (== size when all are). */
    private int head;

    /** A window whose offsets below {@code floor} are decided and none at or above it. */
    HalfWindow(long floor) {
        if (floor < 0) {
            throw new IllegalArgumentException("floor must be >= 0, was " + floor);
        }
        this.base = floor;
    }

    /** True when the half message at {@code offset} has an outcome. */
    boolean isDecided(long offset) {
        if (offset < base + head) {
            return true;
        }
        long index = offset - base;
        return index < size && slots[(int) index] == DECIDED;
    }

    /** Check-backs sent for the half message at {@code offset}; 0 when decided or never checked. */
    int checks(long offset) {
        long index = offset - base;
        if (index < head || index >= size) {
            return 0;
        }
        return Math.max(0, slots[(int) index]);
    }

    /** Records that the half message at {@code offset} has an outcome. */
    void decide(long offset) {
        if (offset >= base + head) {
            put(offset, DECIDED);
            advanceHead();
        }
    }

    /** Records {@code checks} check-backs sent for the undecided half message at {@code offset}. */
    void setChecks(long offset, int checks) {
        if (!isDecided(offset)) {
            put(offset, (short) Math.min(Short.MAX_VALUE, Math.max(0, checks)));
        }
    }

    /** Marks everything below {@code offset} decided (e.g. the half messages retention removed). */
    void raiseFloor(long offset) {
        if (offset <= base + head) {
            return;
        }
        if (offset >= base + size) {
            base = offset;
            size = 0;
            head = 0;
            return;
        }
        for (int i = head; i < (int) (offset - base); i++) {
            slots[i] = DECIDED;
        }
        advanceHead();
    }

    /** The first offset without an outcome. */
    long floor() {
        return base + head;
    }

    private void put(long offset, short value) {
        long index = offset - base;
        if (index >= MAX_SLOTS) {
            throw new IllegalStateException("half offset " + offset + " is too far past the oldest unresolved one "
                    + floor());
        }
        int i = (int) index;
        if (i >= slots.length) {
            short[] grown = new short[(int) Math.min(MAX_SLOTS, Math.max(i + 1L, 2L * slots.length))];
            System.arraycopy(slots, 0, grown, 0, size);
            slots = grown;
        }
        for (int gap = size; gap < i; gap++) {
            slots[gap] = 0;
        }
        slots[i] = value;
        size = Math.max(size, i + 1);
    }

    private void advanceHead() {
        while (head < size && slots[head] == DECIDED) {
            head++;
        }
        if (head == size) {
            base += size;
            size = 0;
            head = 0;
        } else if (head >= COMPACT_SLOTS && head >= size / 2) {
            System.arraycopy(slots, head, slots, 0, size - head);
            base += head;
            size -= head;
            head = 0;
        }
    }
}
