/**
 * Consume-queue indexes: per-queue, fixed-slot, memory-mapped files mapping a queue offset to the CommitLog
 * record that holds it. {@link io.sluice.store.index.ConsumeQueueTable} owns every queue;
 * {@link io.sluice.store.index.ConsumeQueue} is one queue, SimpleCQ (20-byte slot per message) or BatchCQ (46-byte
 * slot per record carrying a batch). Slot layouts are in {@code ConsumeQueueDescriptor} and
 * {@code BatchConsumeQueueDescriptor}.
 *
 * <p><b>API</b> (the public classes). For the store façade, the dispatchers, recovery and retention:
 * {@code ConsumeQueueTable}, {@code ConsumeQueue}, {@code IndexSettings}, {@code LastStop}, {@code StoreTimeLookup},
 * and what a queue answers: {@code SlotLookup} with its {@code QueueSlot}, {@code SlotBatch},
 * {@code SlotReadStatus}, {@code SlotAppendStatus}. The JMH benchmarks of the index use the same classes.
 */
package io.sluice.store.index;
