package io.sluice.broker.transaction;

import io.sluice.remoting.protocol.MalformedHeaderException;
import io.sluice.remoting.protocol.RemotingCommand;

/**
 * The header of END_TRANSACTION (37), producer to broker, oneway from the Apache client.
 *
 * <p>Immutable; thread-safe.
 *
 * @param producerGroup        the sending producer's group; must match the half message's {@code PGROUP}
 * @param tranStateTableOffset the half message's queue offset in the half topic
 * @param commitLogOffset      the half message's CommitLog position
 * @param commitOrRollback     {@link #COMMIT} 8, {@link #ROLLBACK} 12 or {@link #UNKNOWN} 0
 * @param fromTransactionCheck true when answering CHECK_TRANSACTION_STATE
 * @param msgId                the message's id (informational)
 * @param transactionId        the transaction id (informational)
 */
record EndTransactionRequest(String producerGroup, long tranStateTableOffset, long commitLogOffset,
                             int commitOrRollback, boolean fromTransactionCheck, String msgId, String transactionId) {

    /** commitOrRollback: the producer does not know yet. */
    static final int UNKNOWN = 0;
    /** commitOrRollback: deliver the message. */
    static final int COMMIT = 8;
    /** commitOrRollback: discard the message. */
    static final int ROLLBACK = 12;

    /**
     * Reads the header.
     *
     * @throws MalformedHeaderException naming the field that is missing or not a number, or a commitOrRollback
     *                                  other than 0, 8, 12
     */
    static EndTransactionRequest parse(RemotingCommand request) {
        String group = request.requireString("producerGroup");
        long tranStateTableOffset = request.requireLong("tranStateTableOffset");
        long commitLogOffset = request.requireLong("commitLogOffset");
        int outcome = request.requireInt("commitOrRollback");
        if (outcome != UNKNOWN && outcome != COMMIT && outcome != ROLLBACK) {
            throw new MalformedHeaderException("commitOrRollback", "header field 'commitOrRollback' is " + outcome
                    + ", expected 8 (commit), 12 (rollback) or 0 (unknown)");
        }
        return new EndTransactionRequest(group, tranStateTableOffset, commitLogOffset, outcome,
                request.optionalBoolean("fromTransactionCheck", false), request.optionalString("msgId", ""),
                request.optionalString("transactionId", ""));
    }
}
