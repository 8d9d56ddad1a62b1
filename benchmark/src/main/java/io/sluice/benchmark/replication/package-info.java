/** A short harness comparing a SYNC_MASTER's throughput from one producer with an ASYNC_MASTER's. */
package io.sluice.benchmark.replication;
