package io.sluice.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.prometheus.metrics.expositionformats.generated.com_google_protobuf_4_36_2.Metrics.Bucket;
import io.prometheus.metrics.expositionformats.generated.com_google_protobuf_4_36_2.Metrics.Histogram;
import io.prometheus.metrics.expositionformats.generated.com_google_protobuf_4_36_2.Metrics.Metric;
import io.prometheus.metrics.expositionformats.generated.com_google_protobuf_4_36_2.Metrics.MetricFamily;
import io.prometheus.metrics.expositionformats.generated.com_google_protobuf_4_36_2.Metrics.MetricType;
import io.sluice.namesrv.metrics.NamesrvMetricsSettings;
import io.sluice.testing.Await;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.common.TopicConfig;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.remoting.protocol.subscription.SubscriptionGroupConfig;
import org.apache.rocketmq.tools.admin.DefaultMQAdminExt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Prometheus endpoint ({@code metricsExporterType=PROM}) scraped while the Apache client sends and consumes:
 * per-topic in and per-group out counters, consumer lag, connections, the CommitLog's fsyncs and the JVM figures
 * move as they should. Every scrape is read in the Prometheus protobuf format and decoded by the Prometheus
 * client's generated parser; the text format is checked to carry the same families.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class MetricsIT {

    private static final String TOPIC = "MetricsTopic";
    private static final String GROUP = "metrics-g";
    private static final int MESSAGES = 30;

    @TempDir
    Path dir;

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @Test
    void scrapedFiguresFollowSendsAndConsumption() throws Exception {
        Map<String, String> conf = Map.of("metricsExporterType", "PROM", "metricsPromExporterPort", "0");
        try (EmbeddedCluster cluster = EmbeddedCluster.start(dir, conf)) {
            int port = cluster.broker().metricsPort();
            assertTrue(port > 0, "the endpoint is bound");
            DefaultMQAdminExt admin = ApacheClients.admin(cluster.namesrvAddr());
            DefaultMQProducer producer = ApacheClients.producer(cluster.namesrvAddr(), "metrics-pg");
            DefaultMQPushConsumer consumer = ApacheClients.pushConsumer(cluster.namesrvAddr(), GROUP);
            AtomicInteger received = new AtomicInteger();
            try {
                admin.start();
                admin.createAndUpdateTopicConfig(cluster.brokerAddr(), new TopicConfig(TOPIC, 4, 4, 6));
                Scrape before = scrape(port);
                assertEquals(0, before.value("rocketmq_messages_in_total", TOPIC, null));
                assertTrue(before.has("jvm_memory_used_bytes"), "JVM metrics are served");
                assertTrue(before.value("rocketmq_topic_number", null, null) >= 1);

                producer.start();
                for (int i = 0; i < MESSAGES; i++) {
                    producer.send(new Message(TOPIC, "TagA", "key-" + i, ("m" + i).getBytes(StandardCharsets.UTF_8)));
                }
                Scrape sent = scrape(port);
                assertEquals(MESSAGES, sent.labelled("sluice_request_latency_seconds_count", "request", "send"),
                        "every send is timed once");
                assertEquals(MESSAGES, sent.labelled("sluice_request_latency_seconds_bucket", "request", "send",
                        "le", "+Inf"));
                assertTrue(sent.labelled("sluice_request_latency_seconds_sum", "request", "send") > 0);
                assertEquals(MESSAGES, sent.value("rocketmq_messages_in_total", TOPIC, null));
                assertTrue(sent.value("sluice_store_messages_total", null, null) >= MESSAGES);
                assertTrue(sent.value("sluice_commitlog_written_position_bytes", null, null) > 0);
                assertTrue(sent.value("rocketmq_producer_connections", null, null) >= 1);
                assertTrue(sent.value("sluice_connections", null, null) >= 2, "admin and producer");

                ApacheClients.consumeCounting(consumer, TOPIC, received, MESSAGES);
                Await.until("the consumed messages are counted out", 30_000,
                        () -> scrapeQuietly(port).value("rocketmq_messages_out_total", TOPIC, GROUP) >= MESSAGES,
                        () -> scrapeQuietly(port).value("rocketmq_messages_out_total", TOPIC, GROUP));
                Await.until("the lag drops to 0 once offsets are committed", 30_000,
                        () -> scrapeQuietly(port).value("rocketmq_consumer_lag_messages", TOPIC, GROUP) == 0,
                        () -> scrapeQuietly(port).value("rocketmq_consumer_lag_messages", TOPIC, GROUP));
                Map<String, MetricFamily> families = scrapeProtobuf(port);
                for (String histogram : List.of("sluice_request_latency_seconds",
                        "sluice_commitlog_flush_latency_seconds", "sluice_commitlog_flush_size_bytes")) {
                    assertEquals(MetricType.HISTOGRAM, families.get(histogram).getType(), histogram);
                }
                String text = scrapeText(port);
                for (String family : families.keySet()) {
                    if (family.startsWith("rocketmq_") || family.startsWith("sluice_")) {
                        assertTrue(text.contains("\n# TYPE " + family + " "), "the text format has " + family);
                    }
                }

                Await.until("the CommitLog's fsyncs are counted", 30_000,
                        () -> scrapeQuietly(port).value("sluice_commitlog_flush_size_bytes_sum", null, null)
                                >= scrapeQuietly(port).value("sluice_commitlog_written_position_bytes", null, null),
                        () -> scrapeQuietly(port).value("sluice_commitlog_flush_size_bytes_sum", null, null));
                Scrape flushed = scrape(port);
                double flushes = flushed.value("sluice_commitlog_flush_latency_seconds_count", null, null);
                assertTrue(flushes >= 1, "fsyncs: " + flushes);
                assertEquals(flushes, flushed.value("sluice_commitlog_flush_size_bytes_count", null, null),
                        "one size per fsync");
                assertEquals(flushes, flushed.labelled("sluice_commitlog_flush_latency_seconds_bucket", "le", "+Inf"));
                assertTrue(flushed.value("sluice_commitlog_flush_latency_seconds_sum", null, null) > 0);
                assertTrue(flushed.value("sluice_commitlog_flush_size_bytes_sum", null, null)
                        <= flushed.value("sluice_commitlog_written_position_bytes", null, null),
                        "no byte is flushed twice");
                double segments = flushed.value("sluice_commitlog_segments", null, null);
                assertTrue(segments >= 1, "segments: " + segments);
                assertTrue(flushed.value("sluice_commitlog_mapped_bytes", null, null)
                        >= flushed.value("sluice_commitlog_written_position_bytes", null, null)
                        - flushed.value("sluice_commitlog_min_position_bytes", null, null),
                        "the mapped segments hold what was written");

                Scrape consumed = scrape(port);
                assertEquals(1, consumed.value("rocketmq_consumer_connections", null, GROUP));
                assertTrue(consumed.value("sluice_pull_transferred_bytes_total", null, null) > 0);
                assertEquals(0, consumed.value("sluice_dispatch_lag_bytes", null, null));
                assertTrue(consumed.labelled("sluice_request_latency_seconds_count", "request", "pull") >= 1,
                        "pulls answered at once are timed");

                Await.until("the keys of the sent messages are indexed", 30_000,
                        () -> scrapeQuietly(port).value("sluice_key_index_keys_total", null, null) >= 2 * MESSAGES,
                        () -> scrapeQuietly(port).value("sluice_key_index_keys_total", null, null));
                assertEquals(1, admin.queryMessage(TOPIC, "key-7", 32, 0, Long.MAX_VALUE).getMessageList().size());
                Scrape queried = scrape(port);
                assertTrue(queried.value("sluice_key_index_lookup_latency_seconds_count", null, null) >= 1,
                        "the key query is timed");
                assertTrue(queried.value("sluice_key_index_files", null, null) >= 1);
                assertEquals(0, queried.value("sluice_key_index_failures_total", null, null));

                consumer.shutdown();
                for (int i = 0; i < MESSAGES; i++) {
                    producer.send(new Message(TOPIC, "TagA", ("n" + i).getBytes(StandardCharsets.UTF_8)));
                }
                Await.until("the lag of the stopped group counts the new messages", 30_000,
                        () -> scrapeQuietly(port).value("rocketmq_consumer_lag_messages", TOPIC, GROUP) == MESSAGES,
                        () -> scrapeQuietly(port).value("rocketmq_consumer_lag_messages", TOPIC, GROUP));
            } finally {
                consumer.shutdown();
                producer.shutdown();
                admin.shutdown();
            }
        }
    }

    @Test
    void aScrapeOfTenThousandQueuesStaysSmallAndDocumented() throws Exception {
        Map<String, String> conf = Map.of("metricsExporterType", "PROM", "metricsPromExporterPort", "0");
        try (EmbeddedCluster cluster = EmbeddedCluster.start(dir, conf)) {
            int topics = 10;
            int queues = 1_000;
            DefaultMQAdminExt admin = ApacheClients.admin(cluster.namesrvAddr());
            try {
                admin.start();
                for (int t = 0; t < topics; t++) {
                    admin.createAndUpdateTopicConfig(cluster.brokerAddr(), new TopicConfig("Wide" + t, queues, queues,
                            6));
                }
                SubscriptionGroupConfig group = new SubscriptionGroupConfig();
                group.setGroupName("wide-g");
                admin.createAndUpdateSubscriptionGroupConfig(cluster.brokerAddr(), group);
            } finally {
                admin.shutdown();
            }
            for (int t = 0; t < topics; t++) {
                for (int q = 0; q < queues; q++) {
                    cluster.broker().metadata().commitOffset("wide-g", "Wide" + t, q, 0);
                }
            }
            int port = cluster.broker().metricsPort();
            scrape(port);
            long startNs = System.nanoTime();
            Scrape wide = scrape(port);
            long scrapeMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNs);
            assertEquals(topics, wide.samples().get("rocketmq_consumer_lag_messages").size(),
                    "one lag series per topic and group, not per queue");
            assertTrue(scrapeMs < 2_000, "a scrape of " + topics * queues + " queues took " + scrapeMs + " ms");

            String doc = Files.readString(Path.of("..", "distribution", "src", "docs", "metrics.md"));
            for (String name : wide.samples().keySet()) {
                String family = name.replaceAll("_(total|created|bucket|count|sum)$", "");
                if (family.startsWith("rocketmq_") || family.startsWith("sluice_")) {
                    assertTrue(doc.contains("`" + family), "metrics.md does not document " + family);
                }
            }
        }
    }

    @Test
    void theNameServerCountsRoutesRequestsAndConnections() throws Exception {
        try (EmbeddedCluster cluster = EmbeddedCluster.start(dir, Map.of(),
                new NamesrvMetricsSettings(true, "127.0.0.1", 0))) {
            int port = cluster.namesrvMetricsPort();
            assertTrue(port > 0, "the name server's endpoint is bound");
            DefaultMQAdminExt admin = ApacheClients.admin(cluster.namesrvAddr());
            DefaultMQProducer producer = ApacheClients.producer(cluster.namesrvAddr(), "namesrv-metrics-pg");
            try {
                admin.start();
                admin.createAndUpdateTopicConfig(cluster.brokerAddr(), new TopicConfig(TOPIC, 4, 4, 6));
                producer.start();
                producer.send(new Message(TOPIC, "TagA", "routed".getBytes(StandardCharsets.UTF_8)));
                Scrape scraped = scrape(port);
                assertEquals(1, scraped.value("sluice_namesrv_clusters", null, null));
                assertEquals(1, scraped.value("sluice_namesrv_broker_names", null, null));
                assertEquals(1, scraped.value("sluice_namesrv_brokers", null, null));
                assertEquals(1, scraped.value("sluice_namesrv_masters", null, null));
                assertTrue(scraped.value("sluice_namesrv_topics", null, null) >= 1, "the topic has a route");
                assertTrue(scraped.labelled("sluice_namesrv_requests_total", "request_code", "103") >= 1,
                        "REGISTER_BROKER is counted");
                assertTrue(scraped.labelled("sluice_namesrv_requests_total", "request_code", "105") >= 1,
                        "the producer's GET_ROUTEINFO_BY_TOPIC is counted");
                assertTrue(scraped.value("sluice_connections", null, null) >= 2, "the broker's and the clients'");
                assertTrue(scraped.has("jvm_memory_used_bytes"), "JVM metrics are served");

                String doc = Files.readString(Path.of("..", "distribution", "src", "docs", "metrics.md"));
                for (String name : scraped.samples().keySet()) {
                    String family = name.replaceAll("_(total|created)$", "");
                    if (family.startsWith("sluice_")) {
                        assertTrue(doc.contains("`" + family), "metrics.md does not document " + family);
                    }
                }
            } finally {
                producer.shutdown();
                admin.shutdown();
            }
        }
    }

    /**
     * One scrape in the Prometheus protobuf exposition, decoded by the Prometheus client's generated
     * {@link MetricFamily} parser (a real parser of Prometheus' own format, not a home-made one), with the text
     * format's sample names.
     */
    private Scrape scrape(int port) throws IOException, InterruptedException {
        return Scrape.of(scrapeProtobuf(port));
    }

    private Map<String, MetricFamily> scrapeProtobuf(int port) throws IOException, InterruptedException {
        HttpResponse<byte[]> response = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port
                + "/metrics")).header("Accept", "application/vnd.google.protobuf;"
                + " proto=io.prometheus.client.MetricFamily; encoding=delimited").timeout(Duration.ofSeconds(10))
                .build(), HttpResponse.BodyHandlers.ofByteArray());
        assertEquals(200, response.statusCode());
        assertTrue(response.headers().firstValue("Content-Type").orElse("").startsWith(
                "application/vnd.google.protobuf"), "the protobuf format: " + response.headers().map());
        Map<String, MetricFamily> families = new LinkedHashMap<>();
        ByteArrayInputStream in = new ByteArrayInputStream(response.body());
        for (MetricFamily family = MetricFamily.parseDelimitedFrom(in); family != null;
             family = MetricFamily.parseDelimitedFrom(in)) {
            families.put(family.getName(), family);
        }
        return families;
    }

    /** The text format that Prometheus asks for by default is served too, with the same families. */
    private String scrapeText(int port) throws IOException, InterruptedException {
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port
                + "/metrics")).timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, response.statusCode());
        assertTrue(response.headers().firstValue("Content-Type").orElse("").startsWith("text/plain"),
                "the text format: " + response.headers().map());
        return response.body();
    }

    private Scrape scrapeQuietly(int port) {
        try {
            return scrape(port);
        } catch (IOException e) {
            return Scrape.of(Map.of());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Scrape.of(Map.of());
        }
    }

    /**
     * The samples of one scrape by the names they have in the text format: a counter family's name (which ends
     * in {@code _total}), a gauge's, and a histogram's or summary's {@code _count}, {@code _sum} and
     * {@code _bucket} (label {@code le}, {@code +Inf} included).
     */
    private record Scrape(Map<String, List<Map.Entry<Map<String, String>, Double>>> samples) {

        static Scrape of(Map<String, MetricFamily> families) {
            Map<String, List<Map.Entry<Map<String, String>, Double>>> samples = new LinkedHashMap<>();
            for (MetricFamily family : families.values()) {
                String name = family.getName();
                for (Metric metric : family.getMetricList()) {
                    Map<String, String> labels = new LinkedHashMap<>();
                    metric.getLabelList().forEach(l -> labels.put(l.getName(), l.getValue()));
                    switch (family.getType()) {
                        case COUNTER -> add(samples, name, labels, metric.getCounter().getValue());
                        case GAUGE -> add(samples, name, labels, metric.getGauge().getValue());
                        case UNTYPED -> add(samples, name, labels, metric.getUntyped().getValue());
                        case SUMMARY -> {
                            add(samples, name + "_count", labels, metric.getSummary().getSampleCount());
                            add(samples, name + "_sum", labels, metric.getSummary().getSampleSum());
                        }
                        case HISTOGRAM, GAUGE_HISTOGRAM -> addHistogram(samples, name, labels, metric.getHistogram());
                        default -> throw new AssertionError("unexpected type of " + name + ": " + family.getType());
                    }
                }
            }
            return new Scrape(samples);
        }

        private static void addHistogram(Map<String, List<Map.Entry<Map<String, String>, Double>>> samples,
                                         String name, Map<String, String> labels, Histogram histogram) {
            add(samples, name + "_count", labels, histogram.getSampleCount());
            add(samples, name + "_sum", labels, histogram.getSampleSum());
            boolean infinite = false;
            for (Bucket bucket : histogram.getBucketList()) {
                infinite |= Double.isInfinite(bucket.getUpperBound());
                add(samples, name + "_bucket", withLe(labels, bucket.getUpperBound()), bucket.getCumulativeCount());
            }
            if (!infinite) {
                add(samples, name + "_bucket", withLe(labels, Double.POSITIVE_INFINITY), histogram.getSampleCount());
            }
        }

        private static Map<String, String> withLe(Map<String, String> labels, double upperBound) {
            Map<String, String> with = new LinkedHashMap<>(labels);
            with.put("le", Double.isInfinite(upperBound) ? "+Inf" : Double.toString(upperBound));
            return with;
        }

        private static void add(Map<String, List<Map.Entry<Map<String, String>, Double>>> samples, String name,
                                Map<String, String> labels, double value) {
            samples.computeIfAbsent(name, n -> new ArrayList<>()).add(Map.entry(labels, value));
        }

        boolean has(String name) {
            return samples.containsKey(name);
        }

        /** The sum of the samples of {@code name} carrying the given label pairs ({@code k1, v1, k2, v2...}). */
        double labelled(String name, String... pairs) {
            double sum = 0;
            for (Map.Entry<Map<String, String>, Double> sample : samples.getOrDefault(name, List.of())) {
                boolean matches = true;
                for (int i = 0; i < pairs.length; i += 2) {
                    matches &= pairs[i + 1].equals(sample.getKey().get(pairs[i]));
                }
                sum += matches ? sample.getValue() : 0;
            }
            return sum;
        }

        /** The sum of the samples of {@code name} with the given topic and group labels (null: any); 0 if none. */
        double value(String name, String topic, String group) {
            double sum = 0;
            for (Map.Entry<Map<String, String>, Double> sample : samples.getOrDefault(name, List.of())) {
                Map<String, String> labels = sample.getKey();
                if ((topic == null || topic.equals(labels.get("topic")))
                        && (group == null || group.equals(labels.get("consumer_group")))) {
                    sum += sample.getValue();
                }
            }
            return sum;
        }
    }
}
