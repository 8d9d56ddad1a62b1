package io.sluice.store.index;

/**
 * Result of {@link ConsumeQueue#lookup(long)}: either the {@link QueueSlot} holding the offset or an
 * {@link Absent} carrying the reason. Never {@code null}.
 *
 * <pre>{@code
 * SlotLookup result = queue.lookup(offset);
 * if (result instanceof QueueSlot slot) {
 *     read(slot.position(), slot.sizeBytes());
 * } else if (result.status() == SlotReadStatus.BELOW_MIN) {
 *     ...
 * }
 * }</pre>
 *
 * <p>Immutable; thread-safe.
 */
public sealed interface SlotLookup permits QueueSlot, SlotLookup.Absent {

    /** {@link SlotReadStatus#FOUND} for a {@link QueueSlot}, the reason otherwise. */
    SlotReadStatus status();

    /**
     * No slot holds the offset. One shared instance per status.
     *
     * @param status why: never {@link SlotReadStatus#FOUND}
     */
    record Absent(SlotReadStatus status) implements SlotLookup {

        static final Absent BELOW_MIN = new Absent(SlotReadStatus.BELOW_MIN);
        static final Absent BEYOND_MAX = new Absent(SlotReadStatus.BEYOND_MAX);
        static final Absent UNAVAILABLE = new Absent(SlotReadStatus.UNAVAILABLE);

        public Absent {
            if (status == null || status == SlotReadStatus.FOUND) {
                throw new IllegalArgumentException("an absent slot needs a non-FOUND status, was " + status);
            }
        }
    }
}
