package io.sluice.store.dispatch.pipeline;

import io.sluice.store.index.ConsumeQueue;

/**
 * Finds (or creates) the consume queue of a record: normally {@code ConsumeQueueTable::getOrCreate}.
 *
 * <p>Implementations must be thread-safe: every parse worker calls it.
 */
@FunctionalInterface
interface QueueResolver {

    /**
     * @throws RuntimeException when the record cannot be indexed (invalid topic or queue id, unknown queue type,
     *                          queue files that cannot be loaded); the record is then counted and skipped
     */
    ConsumeQueue resolve(String topic, int queueId);
}
