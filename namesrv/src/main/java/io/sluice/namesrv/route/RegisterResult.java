package io.sluice.namesrv.route;

import java.util.Optional;

/**
 * Outcome of {@link RouteTable#register(BrokerRegistration)}.
 *
 * @param status whether the registration was applied
 * @param master for an accepted slave registration: the live master of the same broker name, if any
 */
public record RegisterResult(Status status, Optional<MasterAddress> master) {

    /** Whether a registration was applied. */
    public enum Status {
        /** Applied. */
        ACCEPTED,
        /**
         * Rejected without any change: an incremental registration (exactly one topic) from a broker id that has
         * never made a full registration.
         */
        REJECTED_INCREMENTAL_BEFORE_FULL
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

    /**
     * Whether the registration was applied.
     *
     * @return true when accepted
     */
    public boolean accepted() {
        return status == Status.ACCEPTED;
    }
}
