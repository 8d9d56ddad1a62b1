package io.sluice.remoting.protocol.body;

/**
 * Progress of a consumer group on one queue in {@link ConsumeStats}:
 * {@code {"brokerOffset":1,"consumerOffset":1,"lastTimestamp":1795250979449,"pullOffset":1}}.
 *
 * @param brokerOffset the queue's max offset
 * @param consumerOffset the group's committed offset, 0 if none
 * @param pullOffset max of the committed offset and the last pull's next begin offset
 * @param lastTimestamp store time (epoch ms) of the message at {@code consumerOffset - 1}, 0 if none
 */
public record OffsetWrapper(long brokerOffset, long consumerOffset, long pullOffset, long lastTimestamp) {
}
