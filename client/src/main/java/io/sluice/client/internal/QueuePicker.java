package io.sluice.client.internal;

import io.sluice.remoting.protocol.body.MessageQueue;
import java.util.List;

/**
 * Picks the publish queue of a send attempt: round-robin over the route's writable queues, skipping the broker of
 * the previous failed attempt and isolated brokers while another queue is available
 * (docs/wire-protocol.md#send-retries).
 *
 * <p>It behaves as a scan of the queues from the round-robin position that takes the first acceptable one, but
 * looks at one queue per broker (the queues of a broker are contiguous in the route and share its fate), so a pick
 * costs O(brokers) however many queues the topic has. Stateless apart from the route's counter; thread-safe.
 */
public final class QueuePicker {

    private QueuePicker() {
    }

    /**
     * @param route the topic's route; must have at least one publish queue
     * @param avoidBroker the broker of the previous attempt, or null
     * @param failed brokers to avoid while isolated
     */
    public static MessageQueue pick(TopicRoute route, String avoidBroker, FailedBrokers failed) {
        List<MessageQueue> queues = route.publishQueues();
        int index = route.nextIndex() % queues.size();
        int blocks = route.publishBlocks();
        int first = route.publishBlockOf(index);
        MessageQueue notPrevious = null;
        for (int i = 0; i < blocks; i++) {
            int block = (first + i) % blocks;
            MessageQueue queue = queues.get(i == 0 ? index : route.publishBlockStart(block));
            if (queue.brokerName().equals(avoidBroker)) {
                continue;
            }
            if (!failed.isIsolated(queue.brokerName())) {
                return queue;
            }
            if (notPrevious == null) {
                notPrevious = queue;
            }
        }
        return notPrevious != null ? notPrevious : queues.get(index);
    }
}
