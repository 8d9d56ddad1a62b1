package io.sluice.client;

import io.sluice.remoting.protocol.body.ConsumeFromWhere;

/** Where a consumer group starts on a queue it has no committed offset for. */
public enum ConsumeFrom {
    /** The end of the queue: only messages sent from now on (the default). */
    LAST_OFFSET(ConsumeFromWhere.CONSUME_FROM_LAST_OFFSET),
    /** The first message still stored. */
    FIRST_OFFSET(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET),
    /** The first message stored at or after the consumer's {@code consumeTimestampMs}. */
    TIMESTAMP(ConsumeFromWhere.CONSUME_FROM_TIMESTAMP);

    private final ConsumeFromWhere wire;

    ConsumeFrom(ConsumeFromWhere wire) {
        this.wire = wire;
    }

    /** The value sent in heartbeats. */
    public ConsumeFromWhere wire() {
        return wire;
    }
}
