package io.sluice.broker.auth;

import com.alibaba.fastjson2.JSONException;
import com.alibaba.fastjson2.JSONObject;
import io.sluice.remoting.protocol.RemotingCommand;
import io.sluice.remoting.protocol.RequestCode;
import io.sluice.remoting.protocol.body.BodyCodec;
import io.sluice.remoting.protocol.body.ConsumerData;
import io.sluice.remoting.protocol.body.HeartbeatData;
import io.sluice.remoting.protocol.body.JsonObjects;
import io.sluice.remoting.protocol.body.SubscriptionData;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * For every request code, the permissions a request needs (resource and actions), after ACL 2.0's mapping: the one
 * place that says it, tabulated in docs/security.md#permissions-per-request. Sends need {@code Topic:t Pub} (a retry
 * or dead-letter topic: {@code Group:g Sub}); pulls {@code Topic:t Sub} and {@code Group:g Sub}; admin requests
 * {@code Create}, {@code Update}, {@code Delete}, {@code Get} or {@code List} on their topic, group or cluster;
 * UNREGISTER_CLIENT {@code Group:g Sub} for a consumer group only; LOCK/UNLOCK_BATCH_MQ and CHECK_CLIENT_CONFIG
 * a valid signature only; unknown codes {@code Cluster:c All}. A body that cannot be parsed needs no more than a
 * valid signature here: the handler refuses it.
 *
 * <p>Stateless apart from the cluster name; thread-safe.
 */
final class AccessTable {
    @FunctionalInterface
    private interface Rule {
        List<Access> needs(RemotingCommand request);
    }

    private static final Set<Action> PUB = EnumSet.of(Action.PUB);
    private static final Set<Action> SUB = EnumSet.of(Action.SUB);
    private static final Set<Action> SUB_GET = EnumSet.of(Action.SUB, Action.GET);
    private static final Set<Action> SUB_UPDATE = EnumSet.of(Action.SUB, Action.UPDATE);
    private static final Set<Action> GET = EnumSet.of(Action.GET);
    private static final Set<Action> ALL = EnumSet.of(Action.ALL);

    private final Map<Integer, Rule> rules = new HashMap<>();
    private final Rule fallback;

    AccessTable(String clusterName) {
        Resource cluster = Resource.cluster(clusterName);
        List<Access> clusterAll = List.of(new Access(cluster, ALL));
        fallback = request -> clusterAll;
        Rule send = request -> send(request.extField("topic"));
        Rule sendCompact = request -> send(request.extField("b"));
        rules.put(RequestCode.SEND_MESSAGE, send);
        rules.put(RequestCode.SEND_REPLY_MESSAGE, send);
        rules.put(RequestCode.SEND_MESSAGE_V2, sendCompact);
        rules.put(RequestCode.SEND_BATCH_MESSAGE, sendCompact);
        rules.put(RequestCode.SEND_REPLY_MESSAGE_V2, sendCompact);
        rules.put(RequestCode.END_TRANSACTION, request -> request.extField("topic") == null ? List.of()
                : send(request.extField("topic")));
        Rule pull = request -> topicAndGroup(request, SUB);
        rules.put(RequestCode.PULL_MESSAGE, pull);
        rules.put(RequestCode.LITE_PULL_MESSAGE, pull);
        rules.put(RequestCode.QUERY_CONSUMER_OFFSET, request -> topicAndGroup(request, SUB_GET));
        rules.put(RequestCode.UPDATE_CONSUMER_OFFSET, request -> topicAndGroup(request, SUB_UPDATE));
        rules.put(RequestCode.CONSUMER_SEND_MSG_BACK, request -> group(request, "group", SUB));
        rules.put(RequestCode.GET_CONSUMER_LIST_BY_GROUP, request -> group(request, "consumerGroup", SUB_GET));
        rules.put(RequestCode.UNREGISTER_CLIENT, AccessTable::unregister);
        Rule readTopic = request -> topic(request, SUB_GET);
        for (int code : new int[] {RequestCode.GET_MAX_OFFSET, RequestCode.GET_MIN_OFFSET,
                RequestCode.SEARCH_OFFSET_BY_TIMESTAMP, RequestCode.GET_EARLIEST_MSG_STORETIME,
                RequestCode.QUERY_MESSAGE}) {
            rules.put(code, readTopic);
        }
        List<Access> clusterGet = List.of(new Access(cluster, GET));
        rules.put(RequestCode.VIEW_MESSAGE_BY_ID, request -> request.extField("topic") == null ? clusterGet
                : topic(request, SUB_GET));
        rules.put(RequestCode.UPDATE_AND_CREATE_TOPIC, request -> topic(request,
                EnumSet.of(Action.CREATE, Action.UPDATE)));
        rules.put(RequestCode.DELETE_TOPIC_IN_BROKER, request -> topic(request, EnumSet.of(Action.DELETE)));
        rules.put(RequestCode.GET_TOPIC_CONFIG, request -> topic(request, GET));
        rules.put(RequestCode.GET_TOPIC_STATS_INFO, request -> topic(request, GET));
        rules.put(RequestCode.DELETE_SUBSCRIPTIONGROUP, request -> group(request, "groupName",
                EnumSet.of(Action.DELETE)));
        rules.put(RequestCode.GET_SUBSCRIPTIONGROUP_CONFIG, request -> group(request, "group", GET));
        rules.put(RequestCode.GET_CONSUME_STATS, request -> group(request, "consumerGroup", GET));
        rules.put(RequestCode.GET_CONSUMER_CONNECTION_LIST, request -> group(request, "consumerGroup", GET));
        rules.put(RequestCode.GET_PRODUCER_CONNECTION_LIST, request -> group(request, "producerGroup", GET));
        rules.put(RequestCode.GET_CONSUMER_RUNNING_INFO, request -> group(request, "consumerGroup", GET));
        rules.put(RequestCode.CONSUME_MESSAGE_DIRECTLY, request -> group(request, "consumerGroup", GET));
        rules.put(RequestCode.UPDATE_AND_CREATE_SUBSCRIPTIONGROUP, AccessTable::groupCreation);
        rules.put(RequestCode.HEART_BEAT, AccessTable::heartbeat);
        List<Access> clusterList = List.of(new Access(cluster, EnumSet.of(Action.LIST)));
        rules.put(RequestCode.GET_ALL_TOPIC_CONFIG, request -> clusterList);
        rules.put(RequestCode.GET_ALL_SUBSCRIPTIONGROUP_CONFIG, request -> clusterList);
        rules.put(RequestCode.GET_BROKER_RUNTIME_INFO, request -> clusterGet);
        rules.put(RequestCode.GET_BROKER_CONFIG, request -> clusterGet);
        List<Access> clusterUpdate = List.of(new Access(cluster, EnumSet.of(Action.UPDATE)));
        rules.put(RequestCode.UPDATE_BROKER_CONFIG, request -> clusterUpdate);
        for (int code : new int[] {RequestCode.LOCK_BATCH_MQ, RequestCode.UNLOCK_BATCH_MQ,
                RequestCode.CHECK_CLIENT_CONFIG}) {
            rules.put(code, request -> List.of());
        }
    }

    /** The permissions {@code request} needs; empty when a valid signature is enough. */
    List<Access> needs(RemotingCommand request) {
        return rules.getOrDefault(request.code(), fallback).needs(request);
    }

    private static String field(RemotingCommand request, String name) {
        String value = request.extField(name);
        return value == null ? "" : value;
    }

    private static List<Access> send(String topic) {
        Resource resource = Resource.topicOrItsGroup(topic == null ? "" : topic);
        return List.of(new Access(resource, resource.type() == ResourceType.TOPIC ? PUB : SUB));
    }

    private static List<Access> topic(RemotingCommand request, Set<Action> actions) {
        return List.of(new Access(Resource.topicOrItsGroup(field(request, "topic")), actions));
    }

    private static List<Access> group(RemotingCommand request, String field, Set<Action> actions) {
        return List.of(new Access(Resource.group(field(request, field)), actions));
    }

    /**
     * Sub on the consumer group the client leaves; a producer group needs nothing, as in Apache's ACL 2.0, whose
     * clients unregister every producer group (their inner {@code CLIENT_INNER_PRODUCER} too) when they shut down.
     */
    private static List<Access> unregister(RemotingCommand request) {
        String consumerGroup = request.extField("consumerGroup");
        return consumerGroup == null || consumerGroup.isBlank() ? List.of()
                : List.of(new Access(Resource.group(consumerGroup), SUB));
    }

    /** Sub on every consumer group of the heartbeat and on each topic it subscribes to. */
    private static List<Access> heartbeat(RemotingCommand request) {
        HeartbeatData data;
        try {
            data = BodyCodec.decode(request.body(), HeartbeatData.class);
        } catch (IllegalArgumentException e) { // BodyFormatException: the handler refuses the body
            return List.of();
        }
        List<Access> needs = new ArrayList<>();
        for (ConsumerData consumer : data.consumerDataSet()) {
            needs.add(new Access(Resource.group(consumer.groupName()), SUB));
            for (SubscriptionData subscription : consumer.subscriptionDataSet()) {
                Resource topic = Resource.topicOrItsGroup(subscription.topic());
                if (topic.type() == ResourceType.TOPIC) {
                    needs.add(new Access(topic, SUB));
                }
            }
        }
        return needs;
    }

    /** Create or update the group the body names. */
    private static List<Access> groupCreation(RemotingCommand request) {
        byte[] body = request.body();
        String group = "";
        try {
            JSONObject config = body == null ? null : JsonObjects.parse(new String(body, StandardCharsets.UTF_8));
            if (config != null && config.getString("groupName") != null) {
                group = config.getString("groupName");
            }
        } catch (JSONException e) {
            return List.of();
        }
        return List.of(new Access(Resource.group(group), EnumSet.of(Action.CREATE, Action.UPDATE)));
    }

    /** A consumer's topic (unless it is the group's own retry topic) and its group. */
    private static List<Access> topicAndGroup(RemotingCommand request, Set<Action> actions) {
        Access group = new Access(Resource.group(field(request, "consumerGroup")), actions);
        Resource topic = Resource.topicOrItsGroup(field(request, "topic"));
        return topic.type() == ResourceType.TOPIC ? List.of(new Access(topic, actions), group) : List.of(group);
    }
}
