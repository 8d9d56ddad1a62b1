/**
 * Dispatch (Apache "reput"): follows the CommitLog's confirmed position, turns every stored record into a consume
 * queue slot and tells {@link io.sluice.store.ArrivalListener}s which queues grew. {@link
 * io.sluice.store.dispatch.Dispatcher} is the contract; {@link io.sluice.store.dispatch.SerialDispatcher} the
 * one-thread implementation.
 */
package io.sluice.store.dispatch;
