package io.sluice.store;

/**
 * A checkpoint read back from disk.
 *
 * <p>Immutable; thread-safe.
 *
 * @param dispatchedPosition records below it are durable in the log and in the consume queues
 * @param writtenAtMs        when it was taken
 */
record Checkpoint(long dispatchedPosition, long writtenAtMs) {
}
