package io.sluice.remoting.protocol.body;

import com.alibaba.fastjson2.JSON;
import com.alibaba.fastjson2.JSONObject;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * Maps keyed by {@link MessageQueue}, as in {@code TopicStatsTable.offsetTable} and {@code ConsumeStats.offsetTable}.
 *
 * <p>Apache writes such keys as bare JSON objects, which is not standard JSON:
 * <pre>
 * {"offsetTable":{{"brokerName":"b","queueId":0,"topic":"T"}:{...}}}
 * </pre>
 * Sluice writes the standard form, where each key is a string holding the queue's JSON; the Apache client's parser
 * turns it into the same {@code MessageQueue}:
 * <pre>
 * {"offsetTable":{"{\"brokerName\":\"b\",\"queueId\":0,\"topic\":\"T\"}":{...}}}
 * </pre>
 * Reading accepts both forms. Keys are written in {@link MessageQueue} order.
 */
final class MessageQueueKeys {

    private MessageQueueKeys() {
    }

    /** The standard-JSON form of a table: queue JSON text (members sorted by name) to value, in queue order. */
    static Map<String, Object> toWire(Map<MessageQueue, ?> table) {
        Map<String, Object> wire = new LinkedHashMap<>(table.size() * 2);
        for (Map.Entry<MessageQueue, ?> entry : new TreeMap<>(table).entrySet()) {
            wire.put(keyText(entry.getKey()), entry.getValue());
        }
        return wire;
    }

    /** The JSON text used as the key of one queue. */
    static String keyText(MessageQueue queue) {
        return JSON.toJSONString(queue);
    }

    /**
     * Reads a table from a parsed JSON value: null (absent), or an object whose keys are queue JSON text or queue
     * objects.
     */
    static <V> Map<MessageQueue, V> fromWire(Object raw, Class<V> valueType, String field) {
        if (raw == null) {
            return Map.of();
        }
        if (!(raw instanceof Map<?, ?> map)) {
            throw new IllegalArgumentException(field + " is not a JSON object");
        }
        Map<MessageQueue, V> table = new LinkedHashMap<>(map.size() * 2);
        for (Map.Entry<?, ?> entry : map.entrySet()) {
            MessageQueue queue = queueOf(entry.getKey(), field);
            if (!(entry.getValue() instanceof JSONObject value)) {
                throw new IllegalArgumentException(field + " value for " + queue + " is not a JSON object");
            }
            table.put(queue, value.to(valueType));
        }
        return table;
    }

    private static MessageQueue queueOf(Object key, String field) {
        if (key instanceof JSONObject object) {
            return object.to(MessageQueue.class);
        }
        if (key instanceof String text) {
            return JSON.parseObject(text, MessageQueue.class);
        }
        throw new IllegalArgumentException(field + " key is neither a queue object nor queue JSON text: " + key);
    }
}
