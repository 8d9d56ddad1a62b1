package io.sluice.broker.ha;

/**
 * One epoch of a broker group's log: from {@code startPosition} on, the CommitLog was written by the master of
 * {@code epoch} (until the next entry's start).
 *
 * <p>Immutable; thread-safe.
 *
 * @param epoch         the master epoch the controller gave at the election
 * @param startPosition where that master's log ended when it became master
 */
public record EpochEntry(int epoch, long startPosition) {
}
