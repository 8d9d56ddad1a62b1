package io.sluice.client;

import java.util.List;

/**
 * Consumes the messages of each queue one batch at a time, in queue order, while this consumer holds the queue's
 * lock on the broker. Different queues may be consumed at the same time on different threads. A thrown exception
 * counts as {@link OrderlyStatus#SUSPEND}.
 */
@FunctionalInterface
public interface OrderlyListener {

    /** Consumes {@code messages} (at most {@code consumeBatchMaxSize}, consecutive, from one queue). */
    OrderlyStatus consume(List<ReceivedMessage> messages);
}
