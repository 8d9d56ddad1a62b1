package io.sluice.client;

import java.util.List;

/**
 * Consumes messages on any of the push consumer's consume threads, several queues (and several batches of one
 * queue) at a time. Must be thread-safe. A thrown exception counts as {@link ConsumeStatus#RECONSUME_LATER}.
 */
@FunctionalInterface
public interface ConcurrentListener {

    /** Consumes {@code messages} (at most {@code consumeBatchMaxSize}, all from one queue). */
    ConsumeStatus consume(List<ReceivedMessage> messages);
}
