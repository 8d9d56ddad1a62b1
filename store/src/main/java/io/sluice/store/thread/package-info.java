/**
 * The one thread contract of the broker: every long-lived loop is an Agrona {@link org.agrona.concurrent.Agent}
 * (one duty cycle in {@code doWork}, named by {@code roleName}) run by {@link io.sluice.store.thread.AgentHost} on
 * a daemon thread of that name, with an idle strategy chosen by its owner, errors counted and logged by one
 * {@link io.sluice.store.thread.CountingErrorHandler}, and one way to stop. The list of threads, what each owns and
 * how it stops is {@code distribution/src/docs/threads.md}.
 *
 * <p><b>API</b> (the public classes): {@code AgentHost}, {@code LoopAgent}, {@code WakeableIdleStrategy} and
 * {@code IntervalIdleStrategy}, used by every thread owner, in the engine and in the broker.
 */
package io.sluice.store.thread;
