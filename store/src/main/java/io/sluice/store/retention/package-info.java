/**
 * Retention and disk protection: deletes whole expired CommitLog segments (at the configured hours, or when the
 * disk fills up), trims consume queues below the log's new first position, and refuses writes when the disk is
 * nearly full.
 */
package io.sluice.store.retention;
