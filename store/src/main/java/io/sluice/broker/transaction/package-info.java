/**
 * Transactional messages (RocketMQ semantics): half messages wait in {@code RMQ_SYS_TRANS_HALF_TOPIC}, outcomes are
 * recorded as op records in {@code RMQ_SYS_TRANS_OP_HALF_TOPIC}, unresolved ones are checked back with
 * CHECK_TRANSACTION_STATE, and a commit re-stores the message in its real topic exactly once.
 * {@link io.sluice.broker.transaction.TransactionService} owns the state.
 */
package io.sluice.broker.transaction;
