package io.sluice.client.internal;

import io.sluice.client.Message;
import io.sluice.remoting.protocol.body.MessageQueue;
import java.util.Objects;

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
    /** True when {@code message} sent to {@code chosenQueue} (or null) has this key. */
    boolean matches(Message message, MessageQueue chosenQueue) {
        return topic.equals(message.topic()) && Objects.equals(tags, message.tags())
                && waitStoreMsgOk == message.waitStoreMsgOk() && Objects.equals(queue, chosenQueue);
    }
}
