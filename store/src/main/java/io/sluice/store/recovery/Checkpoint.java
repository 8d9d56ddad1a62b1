package io.sluice.store.recovery;

/**
 * A checkpoint read back from disk.
 *
 * <p>Immutable; thread-safe.
 *
 * @param dispatchedPosition records below it are durable in the log and in the consume queues
 * @param writtenAtMs        when it was taken
 */
public record Checkpoint(long dispatchedPosition, long writtenAtMs) {
}
