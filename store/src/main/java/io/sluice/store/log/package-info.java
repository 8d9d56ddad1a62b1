/**
 * The CommitLog: Apache RocketMQ-compatible records ({@link io.sluice.store.log.RecordDescriptor}) appended to
 * fixed-size memory-mapped segments by {@link io.sluice.store.log.CommitLog}, with queue offsets assigned in the
 * same critical section, reads as zero-copy views, a record walker for dispatch, recovery of a torn tail and
 * time- or space-driven retention of whole segments. The wire codecs that the log shares with the broker live
 * here too: batch bodies, properties strings and offset message ids.
 */
package io.sluice.store.log;
