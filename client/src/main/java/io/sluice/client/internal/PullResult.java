package io.sluice.client.internal;

import io.sluice.client.ReceivedMessage;
import java.util.List;

/**
 * The outcome of one pull (docs/wire-protocol.md#pull-results).
 *
 * @param status what the broker found
 * @param nextBeginOffset where to pull next
 * @param minOffset the queue's min offset
 * @param maxOffset the queue's max offset
 * @param messages the messages at or after the requested offset that match the filter, in offset order
 */
public record PullResult(Status status, long nextBeginOffset, long minOffset, long maxOffset,
                         List<ReceivedMessage> messages) {

    /** What a pull found. */
    public enum Status {
        /** Messages were returned (possibly all filtered out on the client). */
        FOUND,
        /** Nothing new at the requested offset. */
        NO_NEW_MSG,
        /** Messages were scanned but none matched the filter. */
        NO_MATCHED_MSG,
        /** The requested offset is outside the queue; continue at {@code nextBeginOffset}. */
        OFFSET_ILLEGAL
    }
}
