package io.sluice.benchmark.load;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * One OpenMessaging Benchmark workload: what {@code bin/sluice bench} runs against every system.
 *
 * <p>The file format is OMB's workload YAML, which is a flat map of {@code key: value} lines ({@code #} comments,
 * optional quotes). Accepted keys: OMB's {@code name, topics, partitionsPerTopic, messageSize, payloadFile,
 * subscriptionsPerTopic, consumerPerSubscription, producersPerTopic, producerRate, consumerBacklogSizeGB,
 * warmupDurationMinutes, testDurationMinutes, keyDistributor, useRandomizedPayloads, randomBytesRatio,
 * randomizedPayloadPoolSize} (the last four are accepted and ignored: payloads are generated, keys are not used),
 * plus Sluice's {@code warmupDurationSeconds} and {@code testDurationSeconds}, which override the minute fields
 * for short runs. Minutes may be fractional. A nested value, an unknown key or a bad number is an error naming it.
 *
 * @param name                    the workload's name (file name without extension when absent)
 * @param topics                  topics, at least 1
 * @param partitionsPerTopic      partitions (Kafka) or queues (RocketMQ) per topic
 * @param messageSizeBytes        body size, 1 B to 4 MiB
 * @param subscriptionsPerTopic   consumer groups per topic
 * @param consumerPerSubscription consumers per group
 * @param producersPerTopic       producers per topic
 * @param producerRate            messages per second over all producers (a rate above what the system sustains,
 *                                such as OMB's 10,000,000, runs as fast as the client's back-pressure allows);
 *                                0 = search the highest sustainable rate
 * @param consumerBacklogSizeGB   0, or the backlog (GB, 10^9 bytes) built before the consumers start
 * @param warmupSeconds           warm-up time (not measured)
 * @param testSeconds             measured time
 */
public record Workload(String name, int topics, int partitionsPerTopic, int messageSizeBytes,
                       int subscriptionsPerTopic, int consumerPerSubscription, int producersPerTopic,
                       long producerRate, double consumerBacklogSizeGB, double warmupSeconds, double testSeconds) {

    private static final Set<String> IGNORED = Set.of("payloadFile", "keyDistributor", "useRandomizedPayloads",
            "randomBytesRatio", "randomizedPayloadPoolSize");
    private static final List<String> KNOWN = List.of("name", "topics", "partitionsPerTopic", "messageSize",
            "subscriptionsPerTopic", "consumerPerSubscription", "producersPerTopic", "producerRate",
            "consumerBacklogSizeGB", "warmupDurationMinutes", "testDurationMinutes", "warmupDurationSeconds",
            "testDurationSeconds");

    /** Validates every field; the exception names the bad one. */
    public Workload {
        require(name != null && !name.isBlank(), "name must not be blank");
        require(topics >= 1, "topics must be at least 1: " + topics);
        require(partitionsPerTopic >= 1 && partitionsPerTopic <= 65_535,
                "partitionsPerTopic must be within 1..65535: " + partitionsPerTopic);
        require(messageSizeBytes >= 1 && messageSizeBytes <= 4 * 1024 * 1024,
                "messageSize must be within 1..4194304: " + messageSizeBytes);
        require(subscriptionsPerTopic >= 0, "subscriptionsPerTopic must not be negative: " + subscriptionsPerTopic);
        require(consumerPerSubscription >= 1, "consumerPerSubscription must be at least 1: " + consumerPerSubscription);
        require(producersPerTopic >= 1, "producersPerTopic must be at least 1: " + producersPerTopic);
        require(producerRate >= 0, "producerRate must not be negative: " + producerRate);
        require(consumerBacklogSizeGB >= 0, "consumerBacklogSizeGB must not be negative: " + consumerBacklogSizeGB);
        require(consumerBacklogSizeGB == 0 || subscriptionsPerTopic > 0,
                "consumerBacklogSizeGB needs at least one subscription");
        require(warmupSeconds >= 0, "warm-up duration must not be negative: " + warmupSeconds);
        require(testSeconds > 0, "test duration must be positive: " + testSeconds);
    }

    /** Reads a workload file. */
    public static Workload read(Path file) throws IOException {
        String base = file.getFileName().toString().replaceFirst("\\.ya?ml$", "");
        try {
            return parse(Files.readString(file, StandardCharsets.UTF_8), base);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(file + ": " + e.getMessage(), e);
        }
    }

    /**
     * Parses workload text.
     *
     * @param defaultName the name when the text has none
     */
    public static Workload parse(String text, String defaultName) {
        Map<String, String> values = new LinkedHashMap<>();
        String[] lines = text.split("\r?\n", -1);
        for (int i = 0; i < lines.length; i++) {
            String line = stripComment(lines[i]);
            if (line.isBlank() || line.strip().equals("---")) {
                continue;
            }
            if (Character.isWhitespace(line.charAt(0)) || line.strip().startsWith("-")) {
                throw new IllegalArgumentException("line " + (i + 1) + ": nested values are not part of a workload: '"
                        + lines[i].strip() + "'");
            }
            int colon = line.indexOf(':');
            if (colon <= 0) {
                throw new IllegalArgumentException("line " + (i + 1) + ": expected 'key: value', got '" + line.strip()
                        + "'");
            }
            String key = line.substring(0, colon).strip();
            String value = unquote(line.substring(colon + 1).strip());
            if (!KNOWN.contains(key) && !IGNORED.contains(key)) {
                throw new IllegalArgumentException("line " + (i + 1) + ": unknown workload key '" + key + "'; known: "
                        + KNOWN);
            }
            if (values.put(key, value) != null) {
                throw new IllegalArgumentException("line " + (i + 1) + ": key '" + key + "' is set twice");
            }
        }
        for (String required : List.of("topics", "partitionsPerTopic", "messageSize", "producersPerTopic",
                "producerRate")) {
            if (!values.containsKey(required)) {
                throw new IllegalArgumentException("missing workload key '" + required + "'");
            }
        }
        double warmup = values.containsKey("warmupDurationSeconds") ? number(values, "warmupDurationSeconds", 0)
                : 60 * number(values, "warmupDurationMinutes", 1);
        double test = values.containsKey("testDurationSeconds") ? number(values, "testDurationSeconds", 0)
                : 60 * number(values, "testDurationMinutes", 5);
        return new Workload(values.getOrDefault("name", defaultName),
                integer(values, "topics", 1), integer(values, "partitionsPerTopic", 1),
                integer(values, "messageSize", 1024), integer(values, "subscriptionsPerTopic", 1),
                integer(values, "consumerPerSubscription", 1), integer(values, "producersPerTopic", 1),
                (long) number(values, "producerRate", 0), number(values, "consumerBacklogSizeGB", 0), warmup, test);
    }

    /** A copy with other durations (the command line's overrides for short runs). */
    public Workload withDurations(double warmup, double test) {
        return new Workload(name, topics, partitionsPerTopic, messageSizeBytes, subscriptionsPerTopic,
                consumerPerSubscription, producersPerTopic, producerRate, consumerBacklogSizeGB, warmup, test);
    }

    /** The backlog to build before the consumers start, in bytes. */
    public long backlogBytes() {
        return (long) (consumerBacklogSizeGB * 1e9);
    }

    @Override
    public String toString() {
        return String.format(Locale.ROOT, "%s: %d topic(s) x %d partitions, %d B messages, %d producer(s)/topic, "
                        + "%d subscription(s) x %d consumer(s), rate %s, backlog %.2f GB, warm-up %.0f s, test %.0f s",
                name, topics, partitionsPerTopic, messageSizeBytes, producersPerTopic, subscriptionsPerTopic,
                consumerPerSubscription, producerRate == 0 ? "max" : producerRate + " msg/s", consumerBacklogSizeGB,
                warmupSeconds, testSeconds);
    }

    private static String stripComment(String line) {
        boolean quoted = false;
        char quote = 0;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (quoted) {
                quoted = c != quote;
            } else if (c == '"' || c == '\'') {
                quoted = true;
                quote = c;
            } else if (c == '#' && (i == 0 || Character.isWhitespace(line.charAt(i - 1)))) {
                return line.substring(0, i);
            }
        }
        return line;
    }

    private static String unquote(String value) {
        if (value.length() >= 2 && (value.startsWith("\"") && value.endsWith("\"")
                || value.startsWith("'") && value.endsWith("'"))) {
            return value.substring(1, value.length() - 1);
        }
        return value;
    }

    private static int integer(Map<String, String> values, String key, int fallback) {
        double value = number(values, key, fallback);
        if (value != Math.rint(value) || Math.abs(value) > Integer.MAX_VALUE) {
            throw new IllegalArgumentException(key + " must be a whole number: " + values.get(key));
        }
        return (int) value;
    }

    private static double number(Map<String, String> values, String key, double fallback) {
        String text = values.get(key);
        if (text == null) {
            return fallback;
        }
        try {
            return Double.parseDouble(text.replace("_", ""));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(key + " is not a number: '" + text + "'", e);
        }
    }

    private static void require(boolean condition, String message) {
        if (!condition) {
            throw new IllegalArgumentException(message);
        }
    }
}
