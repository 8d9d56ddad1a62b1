/**
 * The storage engine: one shared CommitLog, consume queues, dispatch, recovery, retention. No transport.
 *
 * <p>{@link io.sluice.store.MessageStore} is the façade: it assembles the sub-packages and owns their lifecycle.
 * Crash safety is part of that lifecycle and lives here, package-private: the lock file ({@code StoreLock}, one
 * store per directory), the abort marker (present while a store runs), the checkpoint ({@code StoreCheckpoint},
 * written by {@code CheckpointAgent}) and the start-up recovery ({@code StoreRecovery}) that brings the CommitLog
 * and the consume queues back into agreement (distribution/src/docs/storage.md, "Recovery").
 *
 * <p><b>API</b> (the public classes): {@code MessageStore}, {@code StoreSettings}, {@code StoreEnvironment},
 * {@code StoreStats}, {@code GetResult}, {@code GetStatus}, {@code ArrivalListener}, {@code TopicNames},
 * {@code RecoveryReport} and {@code LogTail} (a promoted slave reads the tail it must truncate to) for the broker;
 * {@code DispatchEntry}, the record-to-slot value the engine's sub-packages pass each other. Each sub-package's
 * package-info names its own public classes and who they are for.
 */
package io.sluice.store;
