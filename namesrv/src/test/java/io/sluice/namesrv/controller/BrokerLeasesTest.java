package io.sluice.namesrv.controller;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The leader's heartbeat record: who counts as alive, who may be elected, and the grace of a new leader. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class BrokerLeasesTest {

    private final BrokerLeases leases = new BrokerLeases(10_000);

    @Test
    void aNewLeaderGivesUnheardReplicasOneDefaultTimeoutOfGrace() {
        leases.lead(1, 1_000);
        assertAliveUntil("b", 1, 11_000);
        assertFalse(leases.isHeard("b", 1, 1_000), "grace does not make a replica electable");
    }

    @Test
    void aHeartbeatKeepsAReplicaAliveForItsOwnTimeout() {
        leases.lead(1, 0);
        leases.renew("b", 0, 5_000, 3_000, 777);
        assertAliveUntil("b", 0, 8_000); // its own 3 s timeout, not the default 10 s
        assertTrue(leases.isHeard("b", 0, 8_000));
        assertFalse(leases.isHeard("b", 0, 8_001));
        assertEquals(Optional.of(777L), leases.logEndPosition("b", 0));
    }

    @Test
    void aHeartbeatWithoutATimeoutUsesTheDefault() {
        leases.lead(1, 0);
        leases.renew("b", 2, 5_000, 0, 1);
        assertAliveUntil("b", 2, 15_000);
    }

    @Test
    void leasesAreKeptPerBrokerNameAndId() {
        leases.lead(1, 0);
        leases.renew("a", 1, 100, 1_000, 10);
        leases.renew("b", 1, 100, 1_000, 20);
        leases.renew("a", 2, 100, 1_000, 30);
        assertEquals(Optional.of(10L), leases.logEndPosition("a", 1));
        assertEquals(Optional.of(20L), leases.logEndPosition("b", 1));
        assertEquals(Optional.of(30L), leases.logEndPosition("a", 2));
        assertEquals(Optional.empty(), leases.logEndPosition("b", 2));
    }

    @Test
    void leadingANewTermForgetsEveryLeaseOnce() {
        leases.lead(1, 0);
        leases.renew("b", 1, 100, 1_000_000, 5);
        assertFalse(leases.lead(1, 40_000), "the same term again");
        assertEquals(Optional.of(5L), leases.logEndPosition("b", 1));
        assertTrue(leases.lead(2, 50_000));
        assertEquals(Optional.empty(), leases.logEndPosition("b", 1));
        assertFalse(leases.isHeard("b", 1, 50_000), "heard by the previous term only");
        assertTrue(leases.isAlive("b", 1, 60_000), "but within the new grace");
    }

    /** Alive at {@code lastAliveMs}, dead one millisecond later. */
    private void assertAliveUntil(String brokerName, long brokerId, long lastAliveMs) {
        assertTrue(leases.isAlive(brokerName, brokerId, lastAliveMs),
                brokerName + "/" + brokerId + " at " + lastAliveMs);
        assertFalse(leases.isAlive(brokerName, brokerId, lastAliveMs + 1),
                brokerName + "/" + brokerId + " after " + lastAliveMs);
    }
}
