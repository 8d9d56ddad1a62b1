package io.sluice.remoting.protocol.body;

import com.alibaba.fastjson2.JSONWriter;
import com.alibaba.fastjson2.annotation.JSONType;
import com.alibaba.fastjson2.writer.ObjectWriter;
import java.lang.reflect.Type;
import java.util.Map;

/**
 * Body of an INVOKE_BROKER_TO_RESET_OFFSET (222) response: the new offset of every queue the reset moved.
 * <pre>
 * {"offsetTable":{"{\"brokerName\":\"b\",\"queueId\":0,\"topic\":\"T\"}":42,...}}
 * </pre>
 * See {@link MessageQueueKeys} for the key encoding. Encoded by the broker only; nothing in Sluice decodes it.
 *
 * @param offsetTable queue to its new offset; never null
 */
@JSONType(serializer = ResetOffsetBody.Writer.class)
public record ResetOffsetBody(Map<MessageQueue, Long> offsetTable) {

    /** Normalises an absent table. */
    public ResetOffsetBody {
        offsetTable = Copies.map(offsetTable, "offsetTable");
    }

    /** Writes the standard-JSON form. Used by the JSON library only. */
    static final class Writer implements ObjectWriter<ResetOffsetBody> {
        @Override
        public void write(JSONWriter out, Object object, Object fieldName, Type fieldType, long features) {
            out.write(Map.of("offsetTable", MessageQueueKeys.toWire(((ResetOffsetBody) object).offsetTable())));
        }
    }
}
