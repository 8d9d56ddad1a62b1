package io.sluice.client.internal;

import io.sluice.remoting.protocol.body.BrokerData;
import io.sluice.remoting.protocol.body.MessageQueue;
import io.sluice.remoting.protocol.body.QueueData;
import io.sluice.remoting.protocol.body.TopicRouteData;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * What the client derives from a topic's route (wire-protocol §6.1): the writable queues of brokers that have a
 * master, the readable queues, and every broker's addresses. Immutable apart from the round-robin counter;
 * thread-safe.
 */
public final class TopicRoute {
    /** Permission bit: readable. */
    public static final int PERM_READ = 4;
    /** Permission bit: writable. */
    public static final int PERM_WRITE = 2;

    private final String topic;
    private final TopicRouteData data;
    private final List<MessageQueue> publishQueues;
    private final List<MessageQueue> subscribeQueues;
    private final Map<String, BrokerData> brokers;
    private final boolean fromDefaultTopic;
    private final AtomicInteger next = new AtomicInteger(ThreadLocalRandom.current().nextInt(1 << 16));

    private TopicRoute(String topic, TopicRouteData data, int maxQueuesPerBroker, boolean fromDefaultTopic) {
        this.topic = topic;
        this.data = data;
        this.fromDefaultTopic = fromDefaultTopic;
        Map<String, BrokerData> byName = new HashMap<>();
        for (BrokerData broker : data.brokerDatas()) {
            byName.put(broker.brokerName(), broker);
        }
        this.brokers = Map.copyOf(byName);
        List<QueueData> sorted = new ArrayList<>(data.queueDatas());
        sorted.sort(Comparator.comparing(QueueData::brokerName));
        List<MessageQueue> publish = new ArrayList<>();
        List<MessageQueue> subscribe = new ArrayList<>();
        for (QueueData queues : sorted) {
            BrokerData broker = byName.get(queues.brokerName());
            if ((queues.perm() & PERM_WRITE) != 0 && broker != null
                    && broker.brokerAddrs().containsKey(BrokerData.MASTER_ID)) {
                int count = Math.min(queues.writeQueueNums(), maxQueuesPerBroker);
                for (int i = 0; i < count; i++) {
                    publish.add(new MessageQueue(topic, queues.brokerName(), i));
                }
            }
            if ((queues.perm() & PERM_READ) != 0) {
                int count = Math.min(queues.readQueueNums(), maxQueuesPerBroker);
                for (int i = 0; i < count; i++) {
                    subscribe.add(new MessageQueue(topic, queues.brokerName(), i));
                }
            }
        }
        this.publishQueues = List.copyOf(publish);
        this.subscribeQueues = List.copyOf(subscribe);
    }

    /** The route of {@code topic} as the name server gave it. */
    public static TopicRoute of(String topic, TopicRouteData data) {
        return new TopicRoute(topic, data, Integer.MAX_VALUE, false);
    }

    /**
     * A provisional route for a topic the name server does not know, built from the route of the auto-create
     * template topic {@code TBW102}: each broker gets at most {@code queueNums} queues (wire-protocol §3.9).
     */
    public static TopicRoute fromDefaultTopic(String topic, TopicRouteData defaultTopicRoute, int queueNums) {
        return new TopicRoute(topic, defaultTopicRoute, queueNums, true);
    }

    public String topic() {
        return topic;
    }

    /** The raw route. */
    public TopicRouteData data() {
        return data;
    }

    /** Writable queues of brokers with a master, ordered by broker name then queue id. */
    public List<MessageQueue> publishQueues() {
        return publishQueues;
    }

    /** Readable queues, ordered by broker name then queue id. */
    public List<MessageQueue> subscribeQueues() {
        return subscribeQueues;
    }

    /** True when this route was built from {@code TBW102} because the topic has none yet. */
    public boolean fromDefaultTopic() {
        return fromDefaultTopic;
    }

    /** The master (id 0) address of a broker name, or null. */
    public String masterAddress(String brokerName) {
        BrokerData broker = brokers.get(brokerName);
        return broker == null ? null : broker.brokerAddrs().get(BrokerData.MASTER_ID);
    }

    /** The master address of a broker name, else any of its addresses, else null. */
    public String anyAddress(String brokerName) {
        BrokerData broker = brokers.get(brokerName);
        if (broker == null || broker.brokerAddrs().isEmpty()) {
            return null;
        }
        String master = broker.brokerAddrs().get(BrokerData.MASTER_ID);
        return master != null ? master : broker.brokerAddrs().values().iterator().next();
    }

    /** Every address of every broker of the route. */
    public List<String> allAddresses() {
        List<String> addresses = new ArrayList<>();
        for (BrokerData broker : brokers.values()) {
            addresses.addAll(broker.brokerAddrs().values());
        }
        return addresses;
    }

    /** Next value of the round-robin counter used to pick publish queues. */
    int nextIndex() {
        return next.getAndIncrement() & Integer.MAX_VALUE;
    }
}
