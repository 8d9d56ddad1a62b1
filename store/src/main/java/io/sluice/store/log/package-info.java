/**
 * The CommitLog: Apache RocketMQ-compatible records ({@link io.sluice.format.RecordDescriptor}) appended to
 * fixed-size memory-mapped segments by {@link io.sluice.store.log.CommitLog}, with queue offsets assigned in the
 * same critical section, reads as zero-copy views, a record walker for dispatch, recovery of a torn tail and
 * time- or space-driven retention of whole segments. The record, batch-body, properties and message-id formats it
 * shares with the broker and the client live in {@code io.sluice.format}.
 *
 * <p><b>API</b> (the public classes). For the broker and the store façade: {@code CommitLog}, {@code LogSettings},
 * {@code LogEnvironment}, {@code MessageDraft}, {@code AppendResult}, {@code AppendStatus}, {@code AppendKind},
 * {@code RawAppendStatus}, {@code ReadResult}, {@code ReadStatus}. For the engine's dispatchers, key index and
 * recovery: the record walkers {@code RecordCursor}, {@code RecordParser}, {@code TopicCache}, {@code ScanResult},
 * {@code ScanStatus}, and the {@code QueueOffsetTable} recovery rebuilds. For configuration and the log's
 * environment: {@code FlushMode}, {@code FlushStats}, {@code ForceHook}, {@code StoreFailureHandler}.
 *
 * <p><b>Durability.</b> {@code AsyncFlushAgent} forces written bytes on an interval; {@code GroupCommitAgent} forces
 * as soon as appends wait for it and completes every waiter covered by one fsync (group commit). Both see the log
 * only as a {@code FlushTarget}, never its records, so flushing stays independent of the record format. Every
 * storage {@link java.io.IOException} is reported to the one {@code StoreFailureHandler}, which stops further
 * appends.
 */
package io.sluice.store.log;
