package io.sluice.store.log;

/**
 * How a wait for durability ended.
 *
 * <p>Immutable; thread-safe.
 */
enum FlushOutcome {
    /** The waiter's bytes are on disk. */
    FLUSHED,
    /** The deadline passed first; the bytes are written (and readable) but their durability is unknown. */
    TIMED_OUT,
    /** The fsync failed or the agent closed first; the bytes may not be durable. */
    FAILED
}
