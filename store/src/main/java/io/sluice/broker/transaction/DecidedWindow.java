package io.sluice.broker.transaction;

import java.util.BitSet;

/**
 * Which half messages (by queue offset in the half topic) have an outcome. Everything below {@link #floor()} is
 * decided; above it, one bit per half message up to the newest decided one. The floor is the first undecided
 * offset, so the window spans from the oldest unresolved half message to the newest decided one: one bit per half
 * message stored in the last {@code transactionCheckMax} check intervals at most, since an unresolved message is
 * given up after that many checks.
 *
 * <p>Not thread-safe: owned by the transaction thread.
 */
final class DecidedWindow {

    /** The bit set is shifted down once the floor has moved this far past its base: copying is amortised. */
    private static final int COMPACT_BITS = 64 * 1024;

    private long base;
    private BitSet bits = new BitSet();

    /** A window whose offsets below {@code floor} are decided and none at or above it. */
    DecidedWindow(long floor) {
        if (floor < 0) {
            throw new IllegalArgumentException("floor must be >= 0, was " + floor);
        }
        this.base = floor;
    }

    /** True when the half message at {@code offset} has an outcome. */
    boolean isDecided(long offset) {
        if (offset < base) {
            return true;
        }
        long index = offset - base;
        return index <= Integer.MAX_VALUE - 1 && bits.get((int) index);
    }

    /** Records that the half message at {@code offset} has an outcome. */
    void decide(long offset) {
        if (offset < base) {
            return;
        }
        long index = offset - base;
        if (index > Integer.MAX_VALUE - 1) {
            throw new IllegalStateException("half offset " + offset + " is more than 2^31 past the oldest"
                    + " unresolved one " + floor());
        }
        bits.set((int) index);
        compact();
    }

    /** Marks everything below {@code offset} decided (e.g. the half messages retention removed). */
    void raiseFloor(long offset) {
        if (offset <= base) {
            return;
        }
        long index = offset - base;
        if (index > Integer.MAX_VALUE - 1) {
            bits = new BitSet();
            base = offset;
            return;
        }
        bits.set(0, (int) index);
        compact();
    }

    /** The first offset without an outcome. */
    long floor() {
        return base + bits.nextClearBit(0);
    }

    private void compact() {
        int shift = bits.nextClearBit(0);
        if (shift >= COMPACT_BITS) {
            bits = bits.get(shift, Math.max(shift, bits.length()));
            base += shift;
        }
    }
}
