/**
 * Timer messages (RocketMQ 5 semantics): sends carrying {@code TIMER_DELIVER_MS}, {@code TIMER_DELAY_SEC} or
 * {@code TIMER_DELAY_MS} wait in {@code rmq_sys_wheel_timer} until due, indexed on disk by delivery time
 * (RocksDB), then are stored in their real topic and queue.
 */
package io.sluice.broker.timer;
