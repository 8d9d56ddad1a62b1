package io.sluice.store;

/**
 * Outcome of {@link MessageStore#getMessages}; names and next-offset rules follow Apache RocketMQ's
 * {@code GetMessageStatus} (docs/storage.md#reading). The pull handler maps them to pull response codes.
 *
 * <p>Immutable; thread-safe.
 */
public enum GetStatus {
    /** At least one record is returned. */
    FOUND,
    /** Records were scanned but none matched the tag filter; continue from the next offset. */
    NO_MATCHED_MESSAGE,
    /** The records at the offset were deleted by retention; continue from the next offset. */
    MESSAGE_WAS_REMOVING,
    /** The offset is in range but its slot could not be read (the queue changed under the read); retry. */
    OFFSET_FOUND_NULL,
    /** The offset equals the max offset: nothing new yet (long polling parks here). Next = the offset. */
    OFFSET_OVERFLOW_ONE,
    /** The offset is beyond the max offset. Next = the max offset. */
    OFFSET_OVERFLOW_BADLY,
    /** The offset is below the min offset (trimmed). Next = the min offset. */
    OFFSET_TOO_SMALL,
    /** The queue does not exist. Next = 0. */
    NO_MATCHED_LOGIC_QUEUE,
    /** The queue exists but has never held a message (max offset 0). Next = 0. */
    NO_MESSAGE_IN_QUEUE
}
