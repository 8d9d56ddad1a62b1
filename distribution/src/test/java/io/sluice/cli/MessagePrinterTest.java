package io.sluice.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.alibaba.fastjson2.JSON;
import com.alibaba.fastjson2.JSONObject;
import io.sluice.client.ReceivedMessage;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** {@code consume --print}: one line per message, every field where the format says. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class MessagePrinterTest {

    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    private final PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);

    @Test
    void textIsTabSeparatedWithDashesForAbsentKeysAndTags() {
        MessagePrinter printer = new MessagePrinter(MessagePrinter.Format.TEXT, out);
        printer.print(message(Map.of("UNIQ_KEY", "U1", "KEYS", "k1 k2", "TAGS", "red"), "héllo"));
        printer.print(message(Map.of("UNIQ_KEY", "U2"), "x"));
        assertEquals("broker-a/3\t42\tU1\tk1 k2\tred\t2026-01-31T12:00:00Z\t2026-01-31T12:00:01Z\théllo\n"
                + "broker-a/3\t42\tU2\t-\t-\t2026-01-31T12:00:00Z\t2026-01-31T12:00:01Z\tx\n", printed());
    }

    @Test
    void jsonIsOneObjectALineWithEveryField() {
        new MessagePrinter(MessagePrinter.Format.JSON, out).print(
                message(Map.of("UNIQ_KEY", "U1", "TAGS", "red", "color", "blue"), "line\nbreak"));
        String[] lines = printed().split("\n");
        assertEquals(1, lines.length, "a body's newline is escaped, not printed");
        JSONObject o = JSON.parseObject(lines[0]);
        assertEquals("T", o.getString("topic"));
        assertEquals("broker-a", o.getString("broker"));
        assertEquals(3, o.getIntValue("queue"));
        assertEquals(42, o.getLongValue("offset"));
        assertEquals("U1", o.getString("msgId"));
        assertEquals("red", o.getString("tags"));
        assertEquals(1_769_860_800_000L, o.getLongValue("bornTimestamp"));
        assertEquals(1_769_860_801_000L, o.getLongValue("storeTimestamp"));
        assertEquals("blue", o.getJSONObject("properties").getString("color"));
        assertEquals("line\nbreak", o.getString("body"));
    }

    @Test
    void nonePrintsNothing() {
        new MessagePrinter(MessagePrinter.Format.NONE, out).print(message(Map.of(), "x"));
        assertEquals("", printed());
    }

    private String printed() {
        return bytes.toString(StandardCharsets.UTF_8).replace(System.lineSeparator(), "\n");
    }

    private static ReceivedMessage message(Map<String, String> properties, String body) {
        return new ReceivedMessage("T", 3, "broker-a", 42, body.getBytes(StandardCharsets.UTF_8), 0, 0,
                new LinkedHashMap<>(properties), 1_769_860_800_000L, null, 1_769_860_801_000L, null, 0, 0, "OFFSETID");
    }
}
