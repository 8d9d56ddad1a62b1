/**
 * Consume-queue indexes: per-queue, fixed-slot, memory-mapped files mapping a queue offset to the CommitLog
 * record that holds it. {@link io.sluice.store.index.ConsumeQueueTable} owns every queue;
 * {@link io.sluice.store.index.ConsumeQueue} is one queue, SimpleCQ (20-byte slot per message) or BatchCQ (46-byte
 * slot per record carrying a batch). Slot layouts are in {@code ConsumeQueueDescriptor} and
 * {@code BatchConsumeQueueDescriptor}.
 */
package io.sluice.store.index;
