package io.sluice.client;

import io.sluice.format.MessageProperties;
import io.sluice.remoting.protocol.body.MessageQueue;
import java.net.InetSocketAddress;
import java.util.Map;

/**
 * A consumed message, decoded from a pulled record (messages of a BatchCQ inner batch are unwrapped into one
 * {@code ReceivedMessage} each, with their own queue offset).
 *
 * <p>Immutable (the body array is owned by this object; callers must not change it); thread-safe.
 *
 * @param topic the topic (for a retried message: its original topic)
 * @param queueId the queue id
 * @param brokerName the broker the message was pulled from
 * @param queueOffset the message's logical offset in its queue
 * @param body the body, decompressed when it was ZLIB-compressed
 * @param flag the producer's user flag
 * @param sysFlag the record's system flag bits
 * @param properties every property of the message; never null
 * @param bornTimestampMs the producer's clock when it sent the message
 * @param bornHost the producer's address as the broker saw it
 * @param storeTimestampMs the broker's clock when it stored the record
 * @param storeHost the broker's address
 * @param reconsumeTimes how often the message was consumed before
 * @param commitLogOffset the record's CommitLog position (for an inner message: its batch record's)
 * @param offsetMsgId the record's offset message id
 */
public record ReceivedMessage(
        String topic,
        int queueId,
        String brokerName,
        long queueOffset,
        byte[] body,
        int flag,
        int sysFlag,
        Map<String, String> properties,
        long bornTimestampMs,
        InetSocketAddress bornHost,
        long storeTimestampMs,
        InetSocketAddress storeHost,
        int reconsumeTimes,
        long commitLogOffset,
        String offsetMsgId) {

    /** The client message id (UNIQ_KEY), or the offset message id when the message has none. */
    public String msgId() {
        String uniqKey = properties.get(MessageProperties.UNIQ_KEY);
        return uniqKey == null ? offsetMsgId : uniqKey;
    }

    /** The tag, or null. */
    public String tags() {
        return properties.get(MessageProperties.TAGS);
    }

    /** The keys, or null. */
    public String keys() {
        return properties.get(MessageProperties.KEYS);
    }

    /** One property, or null. */
    public String property(String name) {
        return properties.get(name);
    }

    /** The queue the message came from. */
    public MessageQueue queue() {
        return new MessageQueue(topic, brokerName, queueId);
    }

    @Override
    public String toString() {
        return "ReceivedMessage{topic=" + topic + ", queueId=" + queueId + ", brokerName=" + brokerName
                + ", queueOffset=" + queueOffset + ", bodyBytes=" + body.length + ", msgId=" + msgId()
                + ", reconsumeTimes=" + reconsumeTimes + '}';
    }
}
