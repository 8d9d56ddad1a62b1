package io.sluice.client.internal;

import io.sluice.remoting.protocol.body.BrokerData;
import io.sluice.remoting.protocol.body.MessageQueue;
import io.sluice.remoting.protocol.body.QueueData;
import io.sluice.remoting.protocol.body.TopicRouteData;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * What the client derives from a topic's route (docs/wire-protocol.md#producer-routing): the writable queues of brokers
 * that have a master, the readable queues, and every broker's addresses. Immutable apart from the round-robin counter;
 * thread-safe.
 *
 * <p>A topic may have tens of thousands of queues per broker; building a route costs O(queues), but what a send
 * asks of it (is a queue writable, which queue next) costs O(1) or O(brokers): the publish queues are kept as one
 * contiguous block per broker.
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
    /** Writable queue count of each broker with a master; its publish queues have ids 0..count-1. */
    private final Map<String, Integer> publishCounts;
    /** Index in {@link #publishQueues} where each broker's block starts, in block order. */
    private final int[] blockStarts;
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
        Map<String, Integer> counts = new HashMap<>();
        int[] starts = new int[sorted.size()];
        int blocks = 0;
        for (QueueData queues : sorted) {
            BrokerData broker = byName.get(queues.brokerName());
            if ((queues.perm() & PERM_WRITE) != 0 && broker != null
                    && broker.brokerAddrs().containsKey(BrokerData.MASTER_ID)
                    && !counts.containsKey(queues.brokerName())) {
                int count = Math.min(queues.writeQueueNums(), maxQueuesPerBroker);
                if (count > 0) {
                    counts.put(queues.brokerName(), count);
                    starts[blocks++] = publish.size();
                }
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
        this.publishCounts = Map.copyOf(counts);
        this.blockStarts = Arrays.copyOf(starts, blocks);
        this.publishQueues = List.copyOf(publish);
        this.subscribeQueues = List.copyOf(subscribe);
    }

    /** The route of {@code topic} as the name server gave it. */
    public static TopicRoute of(String topic, TopicRouteData data) {
        return new TopicRoute(topic, data, Integer.MAX_VALUE, false);
    }

    /**
     * A provisional route for a topic the name server does not know, built from the route of the auto-create
     * template topic {@code TBW102}: each broker gets at most {@code queueNums} queues
     * (docs/wire-protocol.md#missing-routes).
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

    /** Whether {@code queue} is one of {@link #publishQueues()}; O(1). */
    public boolean isPublishQueue(MessageQueue queue) {
        Integer count = publishCounts.get(queue.brokerName());
        return count != null && queue.topic().equals(topic) && queue.queueId() >= 0 && queue.queueId() < count;
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

    /** How many brokers have publish queues; their queues form that many blocks of {@link #publishQueues()}. */
    int publishBlocks() {
        return blockStarts.length;
    }

    /** Index in {@link #publishQueues()} of the first queue of block {@code block}. */
    int publishBlockStart(int block) {
        return blockStarts[block];
    }

    /** The block that holds publish queue {@code index}. */
    int publishBlockOf(int index) {
        int found = Arrays.binarySearch(blockStarts, index);
        return found >= 0 ? found : -found - 2;
    }

    /** Next value of the round-robin counter used to pick publish queues. */
    int nextIndex() {
        return next.getAndIncrement() & Integer.MAX_VALUE;
    }
}
