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
 * Body of a GET_CONSUME_STATS (208) response: a consumer group's progress on every queue of its topics on one
 * broker, plus its consume rate.
 * <pre>
 * {"consumeTps":2.1,"offsetTable":{"{\"brokerName\":\"b\",\"queueId\":0,\"topic\":\"T\"}":{OffsetWrapper},...}}
 * </pre>
 * See {@link MessageQueueKeys} for the key encoding.
 *
 * @param offsetTable queue to progress; never null
 * @param consumeTps messages consumed per second by the group
 */
@JSONType(serializer = ConsumeStats.Writer.class, deserializer = ConsumeStats.Reader.class)
public record ConsumeStats(Map<MessageQueue, OffsetWrapper> offsetTable, double consumeTps) {

    /** Normalises an absent table. */
    public ConsumeStats {
        offsetTable = Copies.map(offsetTable, "offsetTable");
    }

    /** Writes the standard-JSON form. Used by the JSON library only. */
    static final class Writer implements ObjectWriter<ConsumeStats> {
        @Override
        public void write(JSONWriter out, Object object, Object fieldName, Type fieldType, long features) {
            ConsumeStats stats = (ConsumeStats) object;
            Map<String, Object> wire = new LinkedHashMap<>();
            wire.put("consumeTps", stats.consumeTps());
            wire.put("offsetTable", MessageQueueKeys.toWire(stats.offsetTable()));
            out.write(wire);
        }
    }

    /** Reads both key forms. Used by the JSON library only. */
    static final class Reader implements ObjectReader<ConsumeStats> {
        @Override
        public ConsumeStats readObject(JSONReader in, Type fieldType, Object fieldName, long features) {
            Object raw = in.readAny();
            if (raw == null) {
                return null;
            }
            if (!(raw instanceof JSONObject object)) {
                throw new IllegalArgumentException("ConsumeStats is not a JSON object");
            }
            return new ConsumeStats(
                    MessageQueueKeys.fromWire(object.get("offsetTable"), OffsetWrapper.class, "offsetTable"),
                    object.getDoubleValue("consumeTps"));
        }
    }
}
