package io.sluice.broker.config;

/**
 * A broker's part in its broker group ({@code brokerRole}, Apache's values).
 *
 * <p>Immutable; thread-safe.
 */
public enum BrokerRole {
    /** Master ({@code brokerId=0}): a send is acknowledged once stored here; slaves copy it afterwards. */
    ASYNC_MASTER,
    /**
     * Master ({@code brokerId=0}): a send is acknowledged once a slave has it too, else FLUSH_SLAVE_TIMEOUT after
     * {@code syncFlushTimeout}, or SLAVE_NOT_AVAILABLE when no slave is connected.
     */
    SYNC_MASTER,
    /** Slave ({@code brokerId>0}): copies its master's CommitLog; refuses sends. */
    SLAVE;

    /** True for the master roles. */
    public boolean isMaster() {
        return this != SLAVE;
    }
}
