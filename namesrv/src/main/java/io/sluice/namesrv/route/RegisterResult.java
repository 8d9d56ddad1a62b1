package io.sluice.namesrv.route;

import java.util.Optional;

/**
 * Outcome of {@link RouteTable#register(BrokerRegistration)}.
 *
 * @param status whether the registration was applied
 * @param master for an accepted slave registration: the live master of the same broker name, if any
 * @param knownMasterEpoch for {@link Status#REJECTED_STALE_MASTER_EPOCH}: the newer master epoch the table holds
 *                         for the broker name; 0 otherwise
 */
public record RegisterResult(Status status, Optional<MasterAddress> master, int knownMasterEpoch) {

    /** Whether a registration was applied. */
    public enum Status {
        /** Applied. */
        ACCEPTED,
        /**
         * Rejected without any change: an incremental registration (exactly one topic) from a broker id that has
         * never made a full registration.
         */
        REJECTED_INCREMENTAL_BEFORE_FULL,
        /**
         * Rejected without any change: a master registration (id 0) whose controller master epoch is lower than one
         * an accepted master registration of the same broker name carried, so it comes from a demoted master.
         */
        REJECTED_STALE_MASTER_EPOCH
    }

    /** A result that names no newer master epoch. */
    public RegisterResult(Status status, Optional<MasterAddress> master) {
        this(status, master, 0);
    }

    /**
     * Address of a slave's master, returned to the slave.
     *
     * @param masterAddr the master's {@code ip:port}
     * @param haServerAddr the master's HA address
     */
    public record MasterAddress(String masterAddr, String haServerAddr) {
    }

    static final RegisterResult ACCEPTED_NO_MASTER = new RegisterResult(Status.ACCEPTED, Optional.empty());

    static final RegisterResult REJECTED = new RegisterResult(Status.REJECTED_INCREMENTAL_BEFORE_FULL,
            Optional.empty());

    static RegisterResult staleMasterEpoch(int knownMasterEpoch) {
        return new RegisterResult(Status.REJECTED_STALE_MASTER_EPOCH, Optional.empty(), knownMasterEpoch);
    }

    /**
     * Whether the registration was applied.
     *
     * @return true when accepted
     */
    public boolean accepted() {
        return status == Status.ACCEPTED;
    }
}
