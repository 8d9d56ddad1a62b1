package io.sluice.broker.handler;

import java.util.function.IntSupplier;

/**
 * How many send and pull requests wait for a thread now: {@code sendThreadPoolQueueSize} and
 * {@code pullThreadPoolQueueSize} of GET_BROKER_RUNTIME_INFO, which {@code mqadmin brokerStatus} shows.
 *
 * @param sends send requests waiting for a send lane (always 0 while sends run on the I/O threads)
 * @param pulls pull requests waiting for a pull thread (re-runs of parked long polls not counted)
 */
public record QueuedRequests(IntSupplier sends, IntSupplier pulls) {
}
