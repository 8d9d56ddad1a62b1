package io.sluice.client.internal;

import io.sluice.remoting.protocol.body.MessageQueue;

/**
 * What messages must share to travel in one auto-batch: topic, tag (the batch's tag is the broker's filter key
 * for a BatchCQ record), the WAIT flag, and the queue when the caller chose one.
 *
 * @param topic the topic
 * @param tags the tag, or null
 * @param waitStoreMsgOk the WAIT flag
 * @param queue the chosen queue, or null when the producer picks one per batch
 */
public record BatchKey(String topic, String tags, boolean waitStoreMsgOk, MessageQueue queue) {
}
