package io.sluice.client;

import io.sluice.format.ConsumeQueueType;
import io.sluice.client.internal.ClientRuntime;
import io.sluice.client.internal.Rpc;
import io.sluice.client.internal.RoutedSender;
import io.sluice.remoting.protocol.RemotingCommand;
import io.sluice.remoting.protocol.RequestCode;
import io.sluice.remoting.protocol.ResponseCode;
import io.sluice.remoting.protocol.body.BodyCodec;
import io.sluice.remoting.protocol.body.BrokerData;
import io.sluice.remoting.protocol.body.ClusterInfo;
import io.sluice.remoting.protocol.body.ConsumeStats;
import io.sluice.remoting.protocol.body.ConsumerConnection;
import io.sluice.remoting.protocol.body.KVTable;
import io.sluice.remoting.protocol.body.MessageQueue;
import io.sluice.remoting.protocol.body.OffsetWrapper;
import io.sluice.remoting.protocol.body.TopicConfigWire;
import io.sluice.remoting.protocol.body.TopicList;
import io.sluice.remoting.protocol.body.TopicOffset;
import io.sluice.remoting.protocol.body.TopicRouteData;
import io.sluice.remoting.protocol.body.TopicStatsTable;
import java.io.IOException;
import java.io.StringReader;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;

/**
 * Administration: create, update and delete topics (with their queue type), and read cluster and route
 * information, topic configs and stats, and consumer progress and lag (docs/wire-protocol.md#name-server,
 * docs/wire-protocol.md#admin-queries).
 *
 * <p>Every call is synchronous and fails with {@link BrokerErrorException} (the server's code and remark) or
 * {@link ClientException}; bad arguments fail with {@link IllegalArgumentException} before anything is sent.
 * Thread-safe. Sends no heartbeats.
 */
public final class Admin implements AutoCloseable {
    private final ClientRuntime runtime;
    private final long timeoutMs;

    private Admin(ConnectionSettings settings) {
        this.runtime = new ClientRuntime(settings, "admin", "", false, 1);
        this.timeoutMs = settings.rpcTimeoutMs();
    }

    /** Creates an admin client; it connects on first use. */
    public static Admin start(ConnectionSettings settings) {
        return new Admin(Objects.requireNonNull(settings, "settings"));
    }

    /** Creates an admin client for the given name servers ({@code ;}-separated) with default settings. */
    public static Admin start(String namesrvAddresses) {
        return start(ConnectionSettings.of(namesrvAddresses));
    }

    /** Brokers and clusters as the name server knows them. */
    public ClusterInfo clusterInfo() {
        return await(runtime.namesrv().clusterInfo(), "cluster info");
    }

    /** The master address of every broker of {@code clusterName}, sorted by broker name. */
    public List<String> masterAddresses(String clusterName) {
        return new ArrayList<>(mastersByName(clusterName).values());
    }

    /** Broker name to master address of every broker of {@code clusterName} that has a master, sorted by name. */
    private Map<String, String> mastersByName(String clusterName) {
        ClusterInfo info = clusterInfo();
        Set<String> names = info.clusterAddrTable().get(clusterName);
        if (names == null || names.isEmpty()) {
            throw new ClientException("cluster " + clusterName + " has no broker (known clusters: "
                    + info.clusterAddrTable().keySet() + ")");
        }
        Map<String, String> masters = new TreeMap<>();
        for (String name : names) {
            BrokerData broker = info.brokerAddrTable().get(name);
            String master = broker == null ? null : broker.brokerAddrs().get(BrokerData.MASTER_ID);
            if (master != null) {
                masters.put(name, master);
            }
        }
        return masters;
    }

    /** The route of {@code topic}. @throws BrokerErrorException with code 17 when it has none */
    public TopicRouteData topicRoute(String topic) {
        Checks.topic(topic);
        return await(runtime.namesrv().topicRoute(topic), "route of " + topic);
    }

    /** Every topic the name server knows. */
    public Set<String> topicList() {
        RemotingCommand response = await(runtime.namesrv().call(
                () -> RemotingCommand.request(RequestCode.GET_ALL_TOPIC_LIST_FROM_NAMESERVER)), "topic list");
        Rpc.requireOk(response, "name server");
        return BodyCodec.decode(response.body(), TopicList.class).topicList();
    }

    /** Creates (or updates) {@code spec} on every master of {@code clusterName}; returns their addresses. */
    public List<String> createTopic(TopicSpec spec, String clusterName) {
        List<String> masters = masterAddresses(clusterName);
        for (String address : masters) {
            createTopicOnBroker(spec, address);
        }
        return masters;
    }

    /**
     * Creates {@code spec} on one broker (UPDATE_AND_CREATE_TOPIC with {@code +queue.type=...}). The broker
     * registers the topic with the name servers before it answers.
     */
    public void createTopicOnBroker(TopicSpec spec, String brokerAddress) {
        send(brokerAddress, topicRequest(spec, attributes(spec, true)), "create topic " + spec.topic());
    }

    /**
     * Changes queue counts, permission or attributes of an existing topic on every master of {@code clusterName}
     * that has it. The queue type cannot change.
     *
     * @throws IllegalArgumentException when {@code spec} asks for another queue type than the topic has
     */
    public void updateTopic(TopicSpec spec, String clusterName) {
        for (String address : masterAddresses(clusterName)) {
            TopicSpec current = topicConfig(spec.topic(), address);
            if (current == null) {
                continue;
            }
            if (current.queueType() != spec.queueType()) {
                throw new IllegalArgumentException("queue.type of topic " + spec.topic() + " is "
                        + current.queueType().attributeValue() + " and cannot change to "
                        + spec.queueType().attributeValue());
            }
            send(address, topicRequest(spec, attributes(spec, false)), "update topic " + spec.topic());
        }
    }

    /** Deletes {@code topic} from every master of {@code clusterName} and from every name server. */
    public void deleteTopic(String topic, String clusterName) {
        Checks.topic(topic);
        for (String address : masterAddresses(clusterName)) {
            send(address, RemotingCommand.request(RequestCode.DELETE_TOPIC_IN_BROKER).putExtField("topic", topic),
                    "delete topic " + topic);
        }
        for (String namesrv : runtime.namesrv().addresses()) {
            RemotingCommand response = await(runtime.namesrv().callAt(namesrv,
                    RemotingCommand.request(RequestCode.DELETE_TOPIC_IN_NAMESRV).putExtField("topic", topic)
                            .putExtField("clusterName", clusterName)), "delete topic " + topic + " in " + namesrv);
            Rpc.requireOk(response, namesrv);
        }
    }

    /** The topic's configuration on one broker, or null when the broker does not have the topic. */
    public TopicSpec topicConfig(String topic, String brokerAddress) {
        Checks.topic(topic);
        RemotingCommand response = await(runtime.call(brokerAddress, RemotingCommand.request(
                RequestCode.GET_TOPIC_CONFIG).putExtField("topic", topic)), "topic config of " + topic);
        if (response.code() == ResponseCode.TOPIC_NOT_EXIST) {
            return null;
        }
        Rpc.requireOk(response, brokerAddress);
        TopicConfigWire config = BodyCodec.decode(response.body(), TopicConfigWire.class);
        Map<String, String> others = new HashMap<>(config.attributes());
        String typeAttribute = others.remove(ConsumeQueueType.ATTRIBUTE_KEY);
        ConsumeQueueType type = typeAttribute == null ? ConsumeQueueType.SIMPLE
                : ConsumeQueueType.fromAttribute(typeAttribute);
        return new TopicSpec(config.topicName(), config.readQueueNums(), config.writeQueueNums(), config.perm(),
                type, config.order(), others);
    }

    /** Min and max offsets of every queue of {@code topic}, over every broker of its route. */
    public Map<MessageQueue, TopicOffset> topicStats(String topic) {
        TopicRouteData route = topicRoute(topic);
        Map<MessageQueue, TopicOffset> stats = new TreeMap<>();
        for (String address : masters(route)) {
            RemotingCommand response = await(runtime.callOk(address, RemotingCommand.request(
                    RequestCode.GET_TOPIC_STATS_INFO).putExtField("topic", topic)), "stats of " + topic);
            stats.putAll(BodyCodec.decode(response.body(), TopicStatsTable.class).offsetTable());
        }
        return stats;
    }

    /**
     * A consumer group's progress and lag. With {@code topic} null, covers every topic the group has offsets for
     * on every master of the group's retry-topic route (else of every cluster).
     */
    public ConsumerProgress consumerProgress(String group, String topic) {
        Checks.group("group", group);
        Set<String> addresses = new LinkedHashSet<>();
        if (topic != null) {
            addresses.addAll(masters(topicRoute(topic)));
        } else {
            for (BrokerData broker : clusterInfo().brokerAddrTable().values()) {
                String master = broker.brokerAddrs().get(BrokerData.MASTER_ID);
                if (master != null) {
                    addresses.add(master);
                }
            }
        }
        Map<MessageQueue, ConsumerProgress.QueueProgress> queues = new TreeMap<>();
        double tps = 0;
        for (String address : addresses) {
            RemotingCommand request = RemotingCommand.request(RequestCode.GET_CONSUME_STATS)
                    .putExtField("consumerGroup", group);
            if (topic != null) {
                request.putExtField("topic", topic);
            }
            RemotingCommand response = await(runtime.call(address, request), "consume stats of " + group);
            if (response.code() == ResponseCode.TOPIC_NOT_EXIST
                    || response.code() == ResponseCode.SUBSCRIPTION_GROUP_NOT_EXIST) {
                continue;
            }
            Rpc.requireOk(response, address);
            ConsumeStats stats = BodyCodec.decode(response.body(), ConsumeStats.class);
            tps += stats.consumeTps();
            for (Map.Entry<MessageQueue, OffsetWrapper> entry : stats.offsetTable().entrySet()) {
                OffsetWrapper offsets = entry.getValue();
                queues.put(entry.getKey(), new ConsumerProgress.QueueProgress(offsets.brokerOffset(),
                        offsets.consumerOffset(), offsets.lastTimestamp()));
            }
        }
        return new ConsumerProgress(group, queues, tps);
    }

    /** The offset the next message of {@code queue} will get (GET_MAX_OFFSET). */
    public long maxOffset(MessageQueue queue) {
        return offsetOf(queue, RequestCode.GET_MAX_OFFSET);
    }

    /** The offset of the first message of {@code queue} still stored (GET_MIN_OFFSET). */
    public long minOffset(MessageQueue queue) {
        return offsetOf(queue, RequestCode.GET_MIN_OFFSET);
    }

    /** A broker's runtime information (GET_BROKER_RUNTIME_INFO), e.g. {@code brokerVersionDesc}. */
    public Map<String, String> brokerRuntimeInfo(String brokerAddress) {
        RemotingCommand response = await(runtime.callOk(brokerAddress,
                RemotingCommand.request(RequestCode.GET_BROKER_RUNTIME_INFO)), "runtime info of " + brokerAddress);
        return BodyCodec.decode(response.body(), KVTable.class).table();
    }

    /** A broker's settings in force (GET_BROKER_CONFIG), by key, sorted. */
    public Map<String, String> brokerConfig(String brokerAddress) {
        RemotingCommand response = await(runtime.callOk(brokerAddress,
                RemotingCommand.request(RequestCode.GET_BROKER_CONFIG)), "settings of " + brokerAddress);
        Properties properties = new Properties();
        try {
            properties.load(new StringReader(new String(response.body(), StandardCharsets.ISO_8859_1)));
        } catch (IOException e) {
            throw new ClientException("the settings of " + brokerAddress + " are not properties text", e);
        }
        Map<String, String> settings = new TreeMap<>();
        properties.forEach((k, v) -> settings.put(k.toString(), v.toString()));
        return settings;
    }

    /**
     * Changes settings of a running broker (UPDATE_BROKER_CONFIG); the broker refuses a key it cannot change while
     * it runs, naming it.
     *
     * @throws BrokerErrorException when the broker refuses the change
     */
    public void updateBrokerConfig(String brokerAddress, Map<String, String> changes) {
        Properties properties = new Properties();
        properties.putAll(changes);
        StringWriter text = new StringWriter();
        try {
            properties.store(text, null);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write properties text", e);
        }
        await(runtime.callOk(brokerAddress, RemotingCommand.request(RequestCode.UPDATE_BROKER_CONFIG)
                .setBody(text.toString().getBytes(StandardCharsets.UTF_8))), "update settings of " + brokerAddress);
    }

    /**
     * Every subscription group of the masters of {@code clusterName} (GET_ALL_SUBSCRIPTIONGROUP_CONFIG), by group
     * name, with the names of the brokers that have it; sorted.
     */
    public Map<String, Set<String>> groups(String clusterName) {
        Map<String, Set<String>> groups = new TreeMap<>();
        mastersByName(clusterName).forEach((brokerName, address) -> {
            RemotingCommand response = await(runtime.callOk(address,
                    RemotingCommand.request(RequestCode.GET_ALL_SUBSCRIPTIONGROUP_CONFIG)), "groups of " + address);
            Object table = BodyCodec.decode(response.body(), Map.class).get("subscriptionGroupTable");
            if (table instanceof Map<?, ?> byName) {
                byName.keySet().forEach(name -> groups.computeIfAbsent(name.toString(), n -> new TreeSet<>())
                        .add(brokerName));
            }
        });
        return groups;
    }

    /**
     * The client ids of {@code group}'s online consumers as the broker at {@code brokerAddress} knows them
     * (GET_CONSUMER_CONNECTION_LIST); empty when none is online.
     */
    public Set<String> consumerClientIds(String group, String brokerAddress) {
        Checks.group("group", group);
        RemotingCommand request = RemotingCommand.request(RequestCode.GET_CONSUMER_CONNECTION_LIST)
                .putExtField("consumerGroup", group);
        RemotingCommand response = await(runtime.call(brokerAddress, request), "consumers of " + group);
        if (response.code() == ResponseCode.CONSUMER_NOT_ONLINE) {
            return Set.of();
        }
        Rpc.requireOk(response, brokerAddress);
        Set<String> ids = new TreeSet<>();
        BodyCodec.decode(response.body(), ConsumerConnection.class).connectionSet()
                .forEach(c -> ids.add(c.clientId()));
        return ids;
    }

    /**
     * The queues the consumer {@code clientId} of {@code group} says it holds (GET_CONSUMER_RUNNING_INFO, forwarded
     * by the broker at {@code brokerAddress} to the client); empty when the client does not answer.
     */
    public Set<MessageQueue> heldQueues(String group, String clientId, String brokerAddress) {
        RemotingCommand response = await(runtime.call(brokerAddress, RemotingCommand.request(
                RequestCode.GET_CONSUMER_RUNNING_INFO).putExtField("consumerGroup", group)
                .putExtField("clientId", clientId).putExtField("jstackEnable", false)), "running info of " + clientId);
        if (response.code() != ResponseCode.SUCCESS || response.body() == null || response.body().length == 0) {
            return Set.of();
        }
        return RunningInfoQueues.of(response.body());
    }

    /**
     * Deletes {@code group}'s config, and with {@code cleanOffsets} its committed offsets, on one broker
     * (DELETE_SUBSCRIPTIONGROUP).
     *
     * @return false when the broker had neither
     */
    public boolean deleteGroup(String group, String brokerAddress, boolean cleanOffsets) {
        Checks.group("group", group);
        RemotingCommand response = await(runtime.call(brokerAddress, RemotingCommand.request(
                RequestCode.DELETE_SUBSCRIPTIONGROUP).putExtField("groupName", group)
                .putExtField("cleanOffset", cleanOffsets)), "delete group " + group);
        if (response.code() == ResponseCode.SUBSCRIPTION_GROUP_NOT_EXIST) {
            return false;
        }
        Rpc.requireOk(response, brokerAddress);
        return true;
    }

    /**
     * The offset of the first message of {@code queue} stored at or after {@code timestampMs}, or its max offset when
     * none is (SEARCH_OFFSET_BY_TIMESTAMP).
     */
    public long offsetAt(MessageQueue queue, long timestampMs) {
        String address = brokerAddress(queue);
        return await(runtime.callOk(address, RemotingCommand.request(RequestCode.SEARCH_OFFSET_BY_TIMESTAMP)
                .putExtField("topic", queue.topic()).putExtField("queueId", queue.queueId())
                .putExtField("timestamp", timestampMs)), "offset of " + queue + " at " + timestampMs)
                .requireLong("offset");
    }

    /**
     * Moves {@code group}'s offset on {@code queue} to {@code offset} (INVOKE_BROKER_TO_RESET_OFFSET): committed at
     * once, and online consumers are told at their next pull of the queue.
     *
     * @throws BrokerErrorException when the broker refuses (unknown group or topic, offset out of the queue's range)
     */
    public void resetOffset(String group, MessageQueue queue, long offset) {
        Checks.group("group", group);
        send(brokerAddress(queue), RemotingCommand.request(RequestCode.INVOKE_BROKER_TO_RESET_OFFSET)
                .putExtField("topic", queue.topic()).putExtField("group", group)
                .putExtField("queueId", queue.queueId()).putExtField("offset", offset)
                .putExtField("timestamp", 0).putExtField("isForce", true), "reset offset of " + group);
    }

    /** Closes the connections. Idempotent. */
    @Override
    public void close() {
        runtime.close();
    }

    private long offsetOf(MessageQueue queue, int code) {
        String address = brokerAddress(queue);
        RemotingCommand request = RemotingCommand.request(code).putExtField("topic", queue.topic())
                .putExtField("queueId", queue.queueId()).putExtField("bname", queue.brokerName());
        if (code == RequestCode.GET_MAX_OFFSET) {
            request.putExtField("committed", true);
        }
        return await(runtime.callOk(address, request), "offset of " + queue).requireLong("offset");
    }

    private String brokerAddress(MessageQueue queue) {
        for (BrokerData broker : topicRoute(queue.topic()).brokerDatas()) {
            if (broker.brokerName().equals(queue.brokerName())) {
                String master = broker.brokerAddrs().get(BrokerData.MASTER_ID);
                if (master != null) {
                    return master;
                }
            }
        }
        throw new ClientException("broker " + queue.brokerName() + " of " + queue + " has no master in the route");
    }

    private RemotingCommand topicRequest(TopicSpec spec, String attributes) {
        return RemotingCommand.request(RequestCode.UPDATE_AND_CREATE_TOPIC)
                .putExtField("topic", spec.topic())
                .putExtField("defaultTopic", RoutedSender.DEFAULT_TOPIC)
                .putExtField("readQueueNums", spec.readQueueNums())
                .putExtField("writeQueueNums", spec.writeQueueNums())
                .putExtField("perm", spec.perm())
                .putExtField("topicFilterType", "SINGLE_TAG")
                .putExtField("topicSysFlag", 0)
                .putExtField("order", spec.order())
                .putExtField("attributes", attributes)
                .putExtField("force", false);
    }

    /** The attributes string: {@code +key=value} entries, queue.type included only on creation. */
    private static String attributes(TopicSpec spec, boolean create) {
        List<String> entries = new ArrayList<>();
        if (create) {
            entries.add("+" + ConsumeQueueType.ATTRIBUTE_KEY + "=" + spec.queueType().attributeValue());
        }
        new TreeMap<>(spec.attributes()).forEach((key, value) -> entries.add("+" + key + "=" + value));
        return String.join(",", entries);
    }

    private void send(String address, RemotingCommand request, String what) {
        await(runtime.callOk(address, request), what);
    }

    private static Set<String> masters(TopicRouteData route) {
        Set<String> addresses = new LinkedHashSet<>();
        for (BrokerData broker : route.brokerDatas()) {
            String master = broker.brokerAddrs().get(BrokerData.MASTER_ID);
            if (master != null) {
                addresses.add(master);
            }
        }
        return addresses;
    }

    private <T> T await(CompletableFuture<T> future, String what) {
        return Rpc.await(future, timeoutMs + 1000, what);
    }
}
