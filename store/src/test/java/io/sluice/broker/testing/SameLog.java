package io.sluice.broker.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.store.MessageStore;
import io.sluice.store.log.ReadResult;
import io.sluice.testing.Await;

/** Checks that a slave's CommitLog is its master's, byte for byte. */
public final class SameLog {

    private SameLog() {
    }

    /** Waits until the slave's log ends where the master's does, then compares them byte for byte. */
    public static void await(MessageStore master, MessageStore slave) {
        Await.until("the slave to reach the master's end", 30_000,
                () -> slave.logEndPosition() == master.logEndPosition(),
                () -> slave.logEndPosition() + " vs " + master.logEndPosition());
        long position = master.logStartPosition();
        while (position < master.logEndPosition()) {
            ReadResult expected = master.readReplicable(position, 1 << 20);
            ReadResult actual = slave.readReplicable(position, 1 << 20);
            assertTrue(expected.isFound() && actual.isFound(), position + ": " + expected.status() + " "
                    + actual.status());
            assertEquals(expected.buffer(), actual.buffer(), "bytes at position " + position);
            position += expected.buffer().remaining();
        }
    }
}
