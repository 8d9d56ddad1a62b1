package io.sluice.client;

import io.sluice.remoting.protocol.body.MessageQueue;

/**
 * The outcome of one stored message. Every message gets its own result, also when it travelled in a batch: its
 * own message id, its queue and its own queue offset (for a BatchCQ inner batch: the batch's base offset plus
 * the message's index in the batch).
 *
 * @param status how the broker acknowledged the store
 * @param msgId the message's UNIQ_KEY, the id consumers see
 * @param offsetMsgId the broker's id of the stored record (for an inner batch, shared by its messages)
 * @param queue the queue the message went to
 * @param queueOffset the message's logical offset in that queue
 * @param batchUniqId the UNIQ_KEY of the inner batch the message was stored in, or null when it was stored as a
 *                    record of its own
 */
public record SendResult(SendStatus status, String msgId, String offsetMsgId, MessageQueue queue, long queueOffset,
                         String batchUniqId) {
}
