/**
 * The CommitLog: Apache RocketMQ-compatible records ({@link io.sluice.format.RecordDescriptor}) appended to
 * fixed-size memory-mapped segments by {@link io.sluice.store.log.CommitLog}, with queue offsets assigned in the
 * same critical section, reads as zero-copy views, a record walker for dispatch, recovery of a torn tail and
 * time- or space-driven retention of whole segments. The record, batch-body, properties and message-id formats it
 * shares with the broker and the client live in {@code io.sluice.format}.
 */
package io.sluice.store.log;