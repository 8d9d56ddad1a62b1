package io.sluice.store.index;

/**
 * Result of {@link ConsumeQueue#lookup(long)}: either the {@link QueueSlot} holding the offset or an
 * {@link Absent} carrying the reason. Never {@code null}.
 *
 * <pre>{@code
 * SlotLookup result = queue.lookup(offset);
 * if (result instanceof QueueSlot slot) {
 *     read(slot.position(), slot.sizeBytes());
 * } else if (result.status() == ReadStatus.BELOW_MIN) {
 *     ...
 * }
 * }</pre>
 *
 * <p>Immutable; thread-safe.
 */
public sealed interface SlotLookup permits QueueSlot, SlotLookup.Absent {

    /** {@link ReadStatus#FOUND} for a {@link QueueSlot}, the reason otherwise. */
    ReadStatus status();

    /**
     * No slot holds the offset. One shared instance per status.
     *
     * @param status why: never {@link ReadStatus#FOUND}
     */
    record Absent(ReadStatus status) implements SlotLookup {

        static final Absent BELOW_MIN = new Absent(ReadStatus.BELOW_MIN);
        static final Absent BEYOND_MAX = new Absent(ReadStatus.BEYOND_MAX);
        static final Absent UNAVAILABLE = new Absent(ReadStatus.UNAVAILABLE);

        public Absent {
            if (status == null || status == ReadStatus.FOUND) {
                throw new IllegalArgumentException("an absent slot needs a non-FOUND status, was " + status);
            }
        }
    }
}
