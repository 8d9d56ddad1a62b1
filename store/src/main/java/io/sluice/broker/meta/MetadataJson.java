package io.sluice.broker.meta;

import io.sluice.format.TopicFilterType;
import io.sluice.remoting.protocol.body.JsonObjects;
import com.alibaba.fastjson2.JSONException;
import com.alibaba.fastjson2.JSONObject;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.TreeMap;

/**
 * JSON forms of the metadata records, in Apache RocketMQ's shapes and key order (keys sorted alphabetically, as
 * Apache's fastjson output is), so that the same text serves as the stored value in {@link MetadataStore} and
 * as a response body on the wire.
 *
 * <pre>
 * TopicConfig:
 *   {"attributes":{"queue.type":"BatchCQ"},"order":false,"perm":6,"readQueueNums":4,
 *    "topicFilterType":"SINGLE_TAG","topicName":"T","topicSysFlag":0,"writeQueueNums":4}
 * SubscriptionGroupConfig:
 *   {"attributes":{},"brokerId":0,"consumeBroadcastEnable":true,"consumeEnable":true,
 *    "consumeFromMinEnable":true,"consumeMessageOrderly":false,"consumeTimeoutMinute":15,"groupName":"g",
 *    "groupSysFlag":0,"notifyConsumerIdsChangedEnable":true,"retryMaxTimes":16,"retryQueueNums":1,
 *    "whichBrokerWhenConsumeSlowly":1}
 * TableVersion:
 *   {"counter":1,"stateVersion":0,"timestamp":1795250930447}
 * TopicConfigSerializeWrapper (GET_ALL_TOPIC_CONFIG body, the "topicConfigSerializeWrapper" of REGISTER_BROKER):
 *   {"dataVersion":{..},"mappingDataVersion":{..},"topicConfigTable":{"T":{TopicConfig}},
 *    "topicQueueMappingDetailMap":{}}
 * </pre>
 *
 * Decoding ignores unknown fields (Apache adds some over time) and fills absent ones with Apache's defaults; a
 * missing name or a mistyped value is an {@link IllegalArgumentException} naming the field.
 *
 * <p>Stateless; thread-safe.
 */
public final class MetadataJson {

    private MetadataJson() {
    }

    // ---------------------------------------------------------------- TopicConfig

    /** The topic as a fresh mutable JSON object (callers may embed it in larger bodies). */
    public static JSONObject topicObject(TopicConfig topic) {
        JSONObject o = new JSONObject();
        o.put("attributes", new JSONObject(new TreeMap<>(topic.attributes())));
        o.put("order", topic.order());
        o.put("perm", topic.perm());
        o.put("readQueueNums", topic.readQueueNums());
        o.put("topicFilterType", topic.topicFilterType().name());
        o.put("topicName", topic.topicName());
        o.put("topicSysFlag", topic.topicSysFlag());
        o.put("writeQueueNums", topic.writeQueueNums());
        return o;
    }

    /** The topic as JSON text. */
    public static String topicToJson(TopicConfig topic) {
        return topicObject(topic).toJSONString();
    }

    /**
     * Parses a TopicConfig JSON text.
     *
     * @throws IllegalArgumentException naming the field that is missing or wrong
     */
    public static TopicConfig topicFromJson(String json) {
        return topicFromObject(parse(json, "TopicConfig"));
    }

    /** Parses a TopicConfig JSON object; see {@link #topicFromJson}. */
    public static TopicConfig topicFromObject(JSONObject o) {
        try {
            String name = requiredString(o, "topicName");
            // 16 read and write queues: Apache's TopicConfig defaults when the fields are absent.
            int read = o.containsKey("readQueueNums") ? o.getIntValue("readQueueNums") : 16;
            int write = o.containsKey("writeQueueNums") ? o.getIntValue("writeQueueNums") : 16;
            int perm = o.containsKey("perm") ? o.getIntValue("perm") : TopicPerm.READ_WRITE;
            String filter = o.getString("topicFilterType");
            TopicFilterType filterType = filter == null ? TopicFilterType.SINGLE_TAG : TopicFilterType.fromWire(filter);
            return new TopicConfig(name, read, write, perm, filterType, o.getIntValue("topicSysFlag"),
                    o.getBooleanValue("order"), null, stringMap(o.getJSONObject("attributes")));
        } catch (JSONException e) {
            throw new IllegalArgumentException("malformed TopicConfig JSON " + o + ": " + e.getMessage(), e);
        }
    }

    // ---------------------------------------------------------------- SubscriptionGroupConfig

    /** The group as a fresh mutable JSON object. */
    public static JSONObject groupObject(SubscriptionGroupConfig group) {
        JSONObject o = new JSONObject();
        o.put("attributes", new JSONObject(new TreeMap<>(group.attributes())));
        o.put("brokerId", group.brokerId());
        o.put("consumeBroadcastEnable", group.consumeBroadcastEnable());
        o.put("consumeEnable", group.consumeEnable());
        o.put("consumeFromMinEnable", group.consumeFromMinEnable());
        o.put("consumeMessageOrderly", group.consumeMessageOrderly());
        o.put("consumeTimeoutMinute", group.consumeTimeoutMinute());
        o.put("groupName", group.groupName());
        o.put("groupSysFlag", group.groupSysFlag());
        o.put("notifyConsumerIdsChangedEnable", group.notifyConsumerIdsChangedEnable());
        o.put("retryMaxTimes", group.retryMaxTimes());
        o.put("retryQueueNums", group.retryQueueNums());
        o.put("whichBrokerWhenConsumeSlowly", group.whichBrokerWhenConsumeSlowly());
        return o;
    }

    /** The group as JSON text. */
    public static String groupToJson(SubscriptionGroupConfig group) {
        return groupObject(group).toJSONString();
    }

    /**
     * Parses a SubscriptionGroupConfig JSON text; absent fields take the Apache defaults.
     *
     * @throws IllegalArgumentException naming the field that is missing or wrong
     */
    public static SubscriptionGroupConfig groupFromJson(String json) {
        JSONObject o = parse(json, "SubscriptionGroupConfig");
        try {
            SubscriptionGroupConfig.Builder b = SubscriptionGroupConfig.builder(requiredString(o, "groupName"));
            if (o.containsKey("consumeEnable")) {
                b.consumeEnable(o.getBooleanValue("consumeEnable"));
            }
            if (o.containsKey("consumeFromMinEnable")) {
                b.consumeFromMinEnable(o.getBooleanValue("consumeFromMinEnable"));
            }
            if (o.containsKey("consumeBroadcastEnable")) {
                b.consumeBroadcastEnable(o.getBooleanValue("consumeBroadcastEnable"));
            }
            if (o.containsKey("consumeMessageOrderly")) {
                b.consumeMessageOrderly(o.getBooleanValue("consumeMessageOrderly"));
            }
            if (o.containsKey("retryQueueNums")) {
                b.retryQueueNums(o.getIntValue("retryQueueNums"));
            }
            if (o.containsKey("retryMaxTimes")) {
                b.retryMaxTimes(o.getIntValue("retryMaxTimes"));
            }
            if (o.containsKey("brokerId")) {
                b.brokerId(o.getLongValue("brokerId"));
            }
            if (o.containsKey("whichBrokerWhenConsumeSlowly")) {
                b.whichBrokerWhenConsumeSlowly(o.getLongValue("whichBrokerWhenConsumeSlowly"));
            }
            if (o.containsKey("notifyConsumerIdsChangedEnable")) {
                b.notifyConsumerIdsChangedEnable(o.getBooleanValue("notifyConsumerIdsChangedEnable"));
            }
            if (o.containsKey("groupSysFlag")) {
                b.groupSysFlag(o.getIntValue("groupSysFlag"));
            }
            if (o.containsKey("consumeTimeoutMinute")) {
                b.consumeTimeoutMinute(o.getIntValue("consumeTimeoutMinute"));
            }
            return b.attributes(stringMap(o.getJSONObject("attributes"))).build();
        } catch (JSONException e) {
            throw new IllegalArgumentException("malformed SubscriptionGroupConfig JSON " + json + ": "
                    + e.getMessage(), e);
        }
    }

    // ---------------------------------------------------------------- TableVersion

    /** The version as a fresh mutable JSON object. */
    public static JSONObject dataVersionObject(TableVersion version) {
        JSONObject o = new JSONObject();
        o.put("counter", version.counter());
        o.put("stateVersion", version.stateVersion());
        o.put("timestamp", version.timestamp());
        return o;
    }

    /** The version as JSON text. */
    public static String dataVersionToJson(TableVersion version) {
        return dataVersionObject(version).toJSONString();
    }

    /**
     * Parses a TableVersion JSON text.
     *
     * @throws IllegalArgumentException naming the text when a field is missing or wrong
     */
    public static TableVersion dataVersionFromJson(String json) {
        JSONObject o = parse(json, "TableVersion");
        try {
            if (!o.containsKey("counter") || !o.containsKey("timestamp")) {
                throw new IllegalArgumentException("TableVersion JSON " + json + " lacks counter or timestamp");
            }
            return new TableVersion(o.getLongValue("stateVersion"), o.getLongValue("timestamp"),
                    o.getLongValue("counter"));
        } catch (JSONException e) {
            throw new IllegalArgumentException("malformed TableVersion JSON " + json + ": " + e.getMessage(), e);
        }
    }

    // ---------------------------------------------------------------- topic table wrapper

    /**
     * The TopicConfigSerializeWrapper of a topic table as a fresh mutable object: the body of
     * GET_ALL_TOPIC_CONFIG, and (with {@code "topicQueueMappingInfoMap":{}} added by the caller) the
     * {@code topicConfigSerializeWrapper} of REGISTER_BROKER. Sluice has no static-topic mappings, so the mapping
     * maps are empty and {@code mappingDataVersion} is an unchanged version stamped with the table's timestamp.
     */
    public static JSONObject topicConfigWrapper(TopicTable table) {
        JSONObject topics = new JSONObject();
        for (Map.Entry<String, TopicConfig> e : table.topics().entrySet()) {
            topics.put(e.getKey(), topicObject(e.getValue()));
        }
        JSONObject o = new JSONObject();
        o.put("dataVersion", dataVersionObject(table.dataVersion()));
        o.put("mappingDataVersion", dataVersionObject(TableVersion.initial(table.dataVersion().timestamp())));
        o.put("topicConfigTable", topics);
        o.put("topicQueueMappingDetailMap", new JSONObject());
        return o;
    }

    /** {@link #topicConfigWrapper} as JSON text. */
    public static String topicConfigWrapperJson(TopicTable table) {
        return topicConfigWrapper(table).toJSONString();
    }

    // ---------------------------------------------------------------- helpers

    static byte[] utf8(String json) {
        return json.getBytes(StandardCharsets.UTF_8);
    }

    static String fromUtf8(byte[] bytes) {
        return new String(bytes, StandardCharsets.UTF_8);
    }

    private static JSONObject parse(String json, String what) {
        JSONObject o;
        try {
            o = JsonObjects.parse(json);
        } catch (JSONException e) {
            throw new IllegalArgumentException("malformed " + what + " JSON " + json + ": " + e.getMessage(), e);
        }
        if (o == null) {
            throw new IllegalArgumentException("empty " + what + " JSON");
        }
        return o;
    }

    private static String requiredString(JSONObject o, String field) {
        String value = o.getString(field);
        if (value == null) {
            throw new IllegalArgumentException("JSON " + o + " lacks required field " + field);
        }
        return value;
    }

    private static Map<String, String> stringMap(JSONObject o) {
        Map<String, String> map = new TreeMap<>();
        if (o != null) {
            for (Map.Entry<String, Object> e : o.entrySet()) {
                if (e.getValue() != null) {
                    map.put(e.getKey(), String.valueOf(e.getValue()));
                }
            }
        }
        return map;
    }
}
