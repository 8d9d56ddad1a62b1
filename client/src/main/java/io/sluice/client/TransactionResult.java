package io.sluice.client;

/**
 * The outcome of {@link TransactionalProducer#sendInTransaction}.
 *
 * @param half  where the broker stored the half message ({@code msgId} is the transaction id)
 * @param state what the local transaction returned, as reported to the broker
 */
public record TransactionResult(SendResult half, TransactionState state) {
}
