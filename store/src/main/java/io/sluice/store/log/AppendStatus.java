package io.sluice.store.log;

/**
 * Outcome of an append. Names follow Apache RocketMQ's {@code PutMessageStatus} where one exists.
 *
 * <p>Immutable; thread-safe.
 */
public enum AppendStatus {
    /** Stored (and, in SYNC mode, durable). */
    PUT_OK,
    /** SYNC mode: stored and readable, but the fsync did not finish within {@code syncFlushTimeoutMs}. */
    FLUSH_DISK_TIMEOUT,
    /** Bad draft: topic, queue id, body size, batch body or flags. Nothing written. */
    MESSAGE_ILLEGAL,
    /** A properties string longer than 32767 bytes. Nothing written. */
    PROPERTIES_SIZE_EXCEEDED,
    /** The log is not open, not yet recovered, closed, or failed earlier. Nothing written. */
    SERVICE_NOT_AVAILABLE,
    /** The disk is flagged full. Nothing written. */
    DISK_FULL,
    /** The next segment could not be prepared in time. Nothing written. */
    CREATE_SEGMENT_FAILED,
    /**
     * A storage I/O error hit this append (creating a segment, or its fsync in SYNC mode). In the fsync case the
     * record was written but may not be durable. The log is not writable afterwards.
     */
    IO_ERROR;

    /** True when the bytes are in the log: PUT_OK or FLUSH_DISK_TIMEOUT. */
    public boolean isStored() {
        return this == PUT_OK || this == FLUSH_DISK_TIMEOUT;
    }
}
