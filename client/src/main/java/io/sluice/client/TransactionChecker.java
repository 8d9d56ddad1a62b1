package io.sluice.client;

/**
 * Answers the broker's question about a transaction left unresolved (CHECK_TRANSACTION_STATE): the broker sends
 * it to a live producer of the group, possibly after a restart of either side. Runs on the transactional
 * producer's check thread, one question at a time.
 */
@FunctionalInterface
public interface TransactionChecker {

    /**
     * The state of the transaction of {@code message} (its real topic, its body and properties; {@code msgId()} is
     * the id the send returned). An exception counts as {@link TransactionState#UNKNOWN}.
     */
    TransactionState check(ReceivedMessage message);
}
