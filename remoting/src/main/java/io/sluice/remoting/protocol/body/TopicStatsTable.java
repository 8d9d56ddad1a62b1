package io.sluice.remoting.protocol.body;

import com.alibaba.fastjson2.JSONObject;
import com.alibaba.fastjson2.JSONReader;
import com.alibaba.fastjson2.JSONWriter;
import com.alibaba.fastjson2.annotation.JSONType;
import com.alibaba.fastjson2.reader.ObjectReader;
import com.alibaba.fastjson2.writer.ObjectWriter;
import java.lang.reflect.Type;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Body of a GET_TOPIC_STATS_INFO (202) response: the offset range of every queue of a topic on one broker, plus the
 * topic's put rate (5.3.3+ brokers; older clients ignore it).
 * <pre>
 * {"offsetTable":{"{\"brokerName\":\"b\",\"queueId\":0,\"topic\":\"T\"}":{TopicOffset},...},"topicPutTps":0.0}
 * </pre>
 * See {@link MessageQueueKeys} for the key encoding.
 *
 * @param offsetTable queue to offset range; never null
 * @param topicPutTps messages put per second into the topic
 */
@JSONType(serializer = TopicStatsTable.Writer.class, deserializer = TopicStatsTable.Reader.class)
public record TopicStatsTable(Map<MessageQueue, TopicOffset> offsetTable, double topicPutTps) {

    /** Normalises an absent table. */
    public TopicStatsTable {
        offsetTable = Copies.map(offsetTable, "offsetTable");
    }

    /** Writes the standard-JSON form. Used by the JSON library only. */
    static final class Writer implements ObjectWriter<TopicStatsTable> {
        @Override
        public void write(JSONWriter out, Object object, Object fieldName, Type fieldType, long features) {
            TopicStatsTable table = (TopicStatsTable) object;
            Map<String, Object> wire = new LinkedHashMap<>();
            wire.put("offsetTable", MessageQueueKeys.toWire(table.offsetTable()));
            wire.put("topicPutTps", table.topicPutTps());
            out.write(wire);
        }
    }

    /** Reads both key forms. Used by the JSON library only. */
    static final class Reader implements ObjectReader<TopicStatsTable> {
        @Override
        public TopicStatsTable readObject(JSONReader in, Type fieldType, Object fieldName, long features) {
            Object raw = in.readAny();
            if (raw == null) {
                return null;
            }
            if (!(raw instanceof JSONObject object)) {
                throw new IllegalArgumentException("TopicStatsTable is not a JSON object");
            }
            return new TopicStatsTable(
                    MessageQueueKeys.fromWire(object.get("offsetTable"), TopicOffset.class, "offsetTable"),
                    object.getDoubleValue("topicPutTps"));
        }
    }
}
