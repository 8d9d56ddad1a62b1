package io.sluice.broker.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Stateful authentication's memory: a connection counts as verified for one user record until its time to live
 * ends; another record of the same name (a changed secret) must sign anew; at the bound, expired entries make room
 * and otherwise a new connection is simply not remembered.
 */
@Timeout(10)
class AuthenticatedConnectionsTest {

    private static final long SECOND = TimeUnit.SECONDS.toNanos(1);
    private static final User ALICE = new User("alice", "secret-1", UserType.NORMAL);

    @Test
    void aVerifiedConnectionCountsUntilItsTimeToLiveEnds() {
        AuthenticatedConnections connections = new AuthenticatedConnections(10, 100);
        long t0 = -5 * SECOND; // nanoTime may be negative: only differences count
        assertFalse(connections.verified("c1", ALICE, t0));
        connections.remember("c1", ALICE, t0);
        assertTrue(connections.verified("c1", ALICE, t0));
        assertTrue(connections.verified("c1", ALICE, t0 + 10 * SECOND - 1));
        assertFalse(connections.verified("c1", ALICE, t0 + 10 * SECOND), "the time to live is over");
        assertFalse(connections.verified("c2", ALICE, t0), "per connection");
    }

    @Test
    void aChangedOrReplacedUserRecordMustSignAnew() {
        AuthenticatedConnections connections = new AuthenticatedConnections(10, 100);
        connections.remember("c1", ALICE, 0);
        User sameNameNewSecret = new User("alice", "secret-2", UserType.NORMAL);
        assertFalse(connections.verified("c1", sameNameNewSecret, 1), "another record, even of the same name");
        User equalButAnotherRecord = new User("alice", "secret-1", UserType.NORMAL);
        assertFalse(connections.verified("c1", equalButAnotherRecord, 1), "the very record that was verified");
        User bob = new User("bob", "b", UserType.SUPER);
        connections.remember("c1", bob, 2);
        assertTrue(connections.verified("c1", bob, 3));
        assertFalse(connections.verified("c1", ALICE, 3), "one user per connection: the last verified");
        assertEquals(1, connections.size());
    }

    @Test
    void atTheBoundExpiredEntriesMakeRoomAndOtherwiseNewOnesAreNotRemembered() {
        AuthenticatedConnections connections = new AuthenticatedConnections(1, 2);
        connections.remember("c1", ALICE, 0);
        connections.remember("c2", ALICE, SECOND / 2);
        connections.remember("c3", ALICE, SECOND / 2 + 1);
        assertFalse(connections.verified("c3", ALICE, SECOND / 2 + 2), "full and nothing expired: not remembered");
        assertEquals(2, connections.size());
        connections.remember("c1", ALICE, SECOND / 2 + 3);
        assertTrue(connections.verified("c1", ALICE, SECOND / 2 + 4),
                "a remembered connection is refreshed at the bound");

        connections.remember("c4", ALICE, SECOND + SECOND / 2);
        assertTrue(connections.verified("c4", ALICE, SECOND + SECOND / 2 + 1), "c2 expired and made room");
        assertFalse(connections.verified("c2", ALICE, SECOND + SECOND / 2 + 1));
        assertEquals(2, connections.size());
    }

    @Test
    void theBoundsMustBePositive() {
        assertThrows(IllegalArgumentException.class, () -> new AuthenticatedConnections(0, 10));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new AuthenticatedConnections(10, 0));
        assertEquals("ttlSeconds and maxEntries must be positive, were 10 and 0", e.getMessage());
    }
}
