package io.sluice.remoting.protocol.body;

/** Where a new consumer group starts on a queue that has no committed offset. Written by name. */
public enum ConsumeFromWhere {
    /** The default: the end of the queue (with the broker's "hot data" exception). */
    CONSUME_FROM_LAST_OFFSET,
    /** Deprecated upstream; treated like {@link #CONSUME_FROM_LAST_OFFSET}. */
    CONSUME_FROM_LAST_OFFSET_AND_FROM_MIN_WHEN_BOOT_FIRST,
    /** Deprecated upstream; the queue's min offset. */
    CONSUME_FROM_MIN_OFFSET,
    /** Deprecated upstream; the queue's max offset. */
    CONSUME_FROM_MAX_OFFSET,
    /** The queue's first stored message. */
    CONSUME_FROM_FIRST_OFFSET,
    /** The first message stored at or after the consumer's configured timestamp. */
    CONSUME_FROM_TIMESTAMP
}
