/**
 * Queue locks of orderly consumers (LOCK_BATCH_MQ / UNLOCK_BATCH_MQ, docs/wire-protocol.md#queue-locks): per consumer
 * group, each queue is held by at most one client id at a time, until released or expired.
 */
package io.sluice.broker.lock;
