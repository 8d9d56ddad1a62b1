package io.sluice.client;

import io.sluice.remoting.protocol.body.MessageQueue;
import java.util.List;

/**
 * Chooses the queue of a send, e.g. by a hash of a business key to keep related messages in order. Called on the
 * sending thread; must be thread-safe if the producer is shared.
 */
@FunctionalInterface
public interface QueueSelector {

    /**
     * @param queues the topic's writable queues, ordered by broker name then queue id; never empty
     * @param message the message being sent
     * @param arg the argument given to the send call
     * @return one of {@code queues}
     */
    MessageQueue select(List<MessageQueue> queues, Message message, Object arg);
}
