package io.sluice.remoting.protocol.body;

/**
 * Offset range of one queue in a {@link TopicStatsTable}:
 * {@code {"lastUpdateTimestamp":1795250979449,"maxOffset":1,"minOffset":0}}.
 *
 * @param minOffset smallest offset still stored
 * @param maxOffset offset the next message will get
 * @param lastUpdateTimestamp store time (epoch ms) of the message at {@code maxOffset - 1}, 0 if none
 */
public record TopicOffset(long minOffset, long maxOffset, long lastUpdateTimestamp) {
}
