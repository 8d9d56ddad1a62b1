/**
 * Retention and disk protection: deletes whole CommitLog segments that expired (at the configured hours, or when
 * the disk fills up) or, under disk pressure, that every consumer group has consumed; keeps unread messages and
 * what the broker still needs ({@link io.sluice.store.retention.RetentionGuard}) unless forced deletion is enabled;
 * trims consume queues below the log's new first position; and keeps the disk below the refuse ratio, with the
 * disk-full flag and a write budget renewed every second ({@link io.sluice.store.retention.WriteBudget}).
 *
 * <p><b>API</b> (the public classes): {@code RetentionAgent} for the store façade; {@code RetentionSettings},
 * {@code RetentionGuard}, {@code RetentionOutcome} and {@code DiskUsage} (the disk seam of the store's environment)
 * for the broker.
 */
package io.sluice.store.retention;
