package io.sluice.client;

/** The state of a local transaction, as the producer reports it to the broker in END_TRANSACTION. */
public enum TransactionState {
    /** Deliver the message: the broker stores it in its topic, once. */
    COMMIT(8),
    /** Discard the message. */
    ROLLBACK(12),
    /** Not known yet: the broker keeps the message and asks again later (CHECK_TRANSACTION_STATE). */
    UNKNOWN(0);

    private final int wireCode;

    TransactionState(int wireCode) {
        this.wireCode = wireCode;
    }

    /** The header value {@code commitOrRollback} of END_TRANSACTION. */
    int wireCode() {
        return wireCode;
    }
}
