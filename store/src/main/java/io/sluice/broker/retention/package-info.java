/**
 * What the store's retention must keep, as the broker knows it: messages some consumer group has not consumed,
 * pending timers, unresolved half messages and delayed messages not yet delivered
 * ({@link io.sluice.broker.retention.BrokerRetentionGuard}).
 */
package io.sluice.broker.retention;
