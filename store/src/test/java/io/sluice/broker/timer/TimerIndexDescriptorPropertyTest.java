package io.sluice.broker.timer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Arrays;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;

/**
 * The timer index's key layout: it decodes to what was encoded, and RocksDB's byte order of keys (unsigned,
 * lexicographic) is the order in which timers come due, which is what lets delivery scan the index in order.
 */
class TimerIndexDescriptorPropertyTest {

    @Property(tries = 1_000)
    void shouldDecodeWhatItEncodes(@ForAll @LongRange(min = 0) long deliverMs,
                                   @ForAll @LongRange(min = 0) long position) {
        byte[] key = TimerIndexDescriptor.key(deliverMs, position);
        assertEquals(TimerIndexDescriptor.KEY_BYTES, key.length);
        assertEquals(deliverMs, TimerIndexDescriptor.deliverMs(key));
        assertEquals(position, TimerIndexDescriptor.position(key));
        assertEquals(new TimerKey(deliverMs, position), TimerKey.decode(key));
    }

    @Property(tries = 1_000)
    void shouldSortKeysAsTimersComeDue(@ForAll @LongRange(min = 0) long deliverA, @ForAll @LongRange(min = 0) long posA,
                                       @ForAll @LongRange(min = 0) long deliverB,
                                       @ForAll @LongRange(min = 0) long posB) {
        int bytes = Integer.signum(Arrays.compareUnsigned(TimerIndexDescriptor.key(deliverA, posA),
                TimerIndexDescriptor.key(deliverB, posB)));
        int timers = Integer.signum(new TimerKey(deliverA, posA).compareTo(new TimerKey(deliverB, posB)));
        assertEquals(timers, bytes);
    }

    @Property(tries = 200)
    void shouldRoundTripProgressValues(@ForAll long value) {
        assertEquals(value, TimerIndexDescriptor.decodeLong(TimerIndexDescriptor.encodeLong(value), 0));
    }

    @Property(tries = 100)
    void shouldRefuseNegativeKeysAndShortValues(@ForAll @LongRange(min = Long.MIN_VALUE, max = -1) long negative,
                                                @ForAll @IntRange(min = 0, max = 7) int shortLength) {
        assertThrows(IllegalArgumentException.class, () -> TimerIndexDescriptor.key(negative, 0));
        assertThrows(IllegalArgumentException.class, () -> TimerIndexDescriptor.key(0, negative));
        assertThrows(IllegalArgumentException.class, () -> TimerIndexDescriptor.decodeLong(new byte[shortLength], 0));
        assertThrows(IllegalArgumentException.class, () -> TimerIndexDescriptor.decodeLong(new byte[15], 8));
        assertThrows(IllegalArgumentException.class, () -> TimerKey.decode(new byte[shortLength]));
    }
}
