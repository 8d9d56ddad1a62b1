/**
 * Durability of the CommitLog: when written bytes are forced to disk and how waiting appends learn about it.
 *
 * <p>{@link io.sluice.store.flush.AsyncFlushAgent} forces on an interval;
 * {@link io.sluice.store.flush.GroupCommitAgent} forces as soon as appends wait for it and completes every waiter
 * covered by one fsync (group commit). Every storage {@link java.io.IOException} is reported to the one
 * {@link io.sluice.store.flush.StoreFailureHandler}, which stops further appends. This package knows nothing about
 * records: it sees the log only as a {@link io.sluice.store.flush.FlushTarget}.
 *
 * <p><b>API</b> (the public classes): {@code FlushMode} for the broker's configuration; {@code ForceHook} and
 * {@code StoreFailureHandler}, the seams of the log's environment; {@code FlushAgent}, {@code FlushSettings},
 * {@code FlushTarget}, {@code FlushWaiter} and {@code FlushOutcome}, this package's contract with its one user,
 * the CommitLog (a separate package so that flushing stays ignorant of records).
 */
package io.sluice.store.flush;
