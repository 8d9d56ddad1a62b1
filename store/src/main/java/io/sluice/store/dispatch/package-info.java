/**
 * Dispatch (Apache "reput"): follows the CommitLog's confirmed position, turns every stored record into a consume
 * queue slot and tells {@link io.sluice.store.ArrivalListener}s which queues grew. {@link
 * io.sluice.store.dispatch.Dispatcher} is the contract; the pipelined dispatcher (subpackage {@code pipeline}) is the
 * product. {@link io.sluice.store.dispatch.SerialDispatcher}, record by record on one thread, is recovery's
 * re-dispatcher (on the opening thread, before any dispatch thread exists), the oracle the pipeline's output is
 * tested against, and the {@code dispatchMode=serial} fallback.
 *
 * <p><b>API</b> (the public classes): {@code Dispatcher}, its {@code DispatchTotals}, {@code SerialDispatcher} for
 * the store façade and recovery; {@code DispatchSettings} and {@code DispatchMode} for the broker's configuration.
 */
package io.sluice.store.dispatch;
