package io.sluice.remoting.protocol.body;

import java.util.Set;

/**
 * A list of topic names: body of GET_ALL_TOPIC_LIST_FROM_NAMESERVER (206), GET_TOPICS_BY_CLUSTER (224) and
 * similar. {@code {"topicList":["TBW102","%RETRY%g"]}}.
 *
 * @param topicList the topic names; never null
 * @param brokerAddr the broker the list came from, or null when not applicable (then the key is omitted)
 */
public record TopicList(Set<String> topicList, String brokerAddr) {

    /** Normalises absent members. */
    public TopicList {
        topicList = Copies.set(topicList, "topicList");
    }

    /**
     * A topic list without a broker address.
     *
     * @param topics the topic names
     * @return the list
     */
    public static TopicList of(Set<String> topics) {
        return new TopicList(topics, null);
    }
}
