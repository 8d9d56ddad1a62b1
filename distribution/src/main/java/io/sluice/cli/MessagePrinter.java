package io.sluice.cli;

import com.alibaba.fastjson2.JSON;
import io.sluice.client.ReceivedMessage;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Prints received messages for {@code consume --print}: one line each, as tab-separated text or as a JSON object.
 * Bodies are printed as UTF-8 text. Used by the consumer's listener thread(s): {@link #print} is synchronized so
 * lines never interleave.
 */
final class MessagePrinter {

    /** How {@code consume --print} shows messages. */
    enum Format {
        /** No message lines: the live rate line only. */
        NONE,
        /** Tab-separated: queue, offset, message id, keys, tags, born and store time, body. */
        TEXT,
        /** One JSON object a line. */
        JSON
    }

    private final Format format;
    private final PrintStream out;

    MessagePrinter(Format format, PrintStream out) {
        this.format = format;
        this.out = out;
    }

    synchronized void print(ReceivedMessage m) {
        String body = new String(m.body(), StandardCharsets.UTF_8);
        switch (format) {
            case TEXT -> out.println(m.brokerName() + "/" + m.queueId() + "\t" + m.queueOffset() + "\t" + m.msgId()
                    + "\t" + orDash(m.keys()) + "\t" + orDash(m.tags()) + "\t"
                    + Instant.ofEpochMilli(m.bornTimestampMs())
                    + "\t" + Instant.ofEpochMilli(m.storeTimestampMs()) + "\t" + body);
            case JSON -> {
                Map<String, Object> fields = new LinkedHashMap<>();
                fields.put("topic", m.topic());
                fields.put("broker", m.brokerName());
                fields.put("queue", m.queueId());
                fields.put("offset", m.queueOffset());
                fields.put("msgId", m.msgId());
                fields.put("keys", m.keys());
                fields.put("tags", m.tags());
                fields.put("bornTimestamp", m.bornTimestampMs());
                fields.put("storeTimestamp", m.storeTimestampMs());
                fields.put("properties", m.properties());
                fields.put("body", body);
                out.println(JSON.toJSONString(fields));
            }
            case NONE -> {
                // the rate line says it all
            }
            default -> throw new IllegalStateException("unknown format " + format);
        }
    }

    private static String orDash(String value) {
        return value == null || value.isEmpty() ? "-" : value;
    }
}
