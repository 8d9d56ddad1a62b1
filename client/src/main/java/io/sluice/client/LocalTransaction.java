package io.sluice.client;

/** The local part of a transaction, run after the broker stored its half message. */
@FunctionalInterface
public interface LocalTransaction {

    /**
     * Runs the local transaction. An exception counts as {@link TransactionState#UNKNOWN}: the broker asks the
     * {@link TransactionChecker} later.
     *
     * @param message the message sent
     * @param half    where the broker stored the half message
     * @return COMMIT to deliver the message, ROLLBACK to discard it, UNKNOWN to decide later
     */
    TransactionState execute(Message message, SendResult half);
}
