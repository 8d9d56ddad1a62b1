package io.sluice.remoting.protocol.body;

import java.util.List;
import java.util.Map;

/**
 * Body of a successful GET_ROUTEINFO_BY_TOPIC (105) response:
 * <pre>
 * {"brokerDatas":[{BrokerData}],"filterServerTable":{},"queueDatas":[{QueueData}]}
 * </pre>
 * The two lists are always written, even when empty (an explicit {@code null} would break the client).
 *
 * @param brokerDatas the live brokers hosting the topic, one per broker name; never null
 * @param queueDatas the topic's queues per broker name; never null
 * @param filterServerTable broker address to filter-server addresses; never null, normally empty
 * @param orderTopicConf ordered-topic layout {@code "brokerA:4;brokerB:4"}, or null when the topic is not ordered
 *                       (then the key is omitted)
 */
public record TopicRouteData(
        List<BrokerData> brokerDatas,
        List<QueueData> queueDatas,
        Map<String, List<String>> filterServerTable,
        String orderTopicConf) {

    /** Normalises absent members. */
    public TopicRouteData {
        brokerDatas = Copies.list(brokerDatas, "brokerDatas");
        queueDatas = Copies.list(queueDatas, "queueDatas");
        filterServerTable = Copies.map(filterServerTable, "filterServerTable");
    }

    /**
     * A route without filter servers and without ordered-topic configuration.
     *
     * @param brokerDatas the brokers
     * @param queueDatas the queues
     * @return the route
     */
    public static TopicRouteData of(List<BrokerData> brokerDatas, List<QueueData> queueDatas) {
        return new TopicRouteData(brokerDatas, queueDatas, Map.of(), null);
    }
}
