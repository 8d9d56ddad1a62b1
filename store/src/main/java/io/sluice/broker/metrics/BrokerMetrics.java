package io.sluice.broker.metrics;

import io.prometheus.metrics.core.metrics.CounterWithCallback;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.instrumentation.jvm.JvmMetrics;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.Labels;
import io.sluice.remoting.transport.RemotingCounters;
import io.sluice.store.StoreStats;
import io.sluice.store.keyindex.KeyIndexStats;
import io.sluice.broker.meta.ConsumerOffset;
import io.sluice.broker.meta.SubscriptionGroupConfig;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.function.ToDoubleFunction;

/**
 * The broker's metrics, registered as callbacks on a {@link PrometheusRegistry}: each scrape reads the counters the
 * broker keeps anyway ({@link MetricsSources}), so the send and pull paths do no extra work for them (the latency
 * histograms of {@link RequestTimers} are the exception). Per-topic and per-group
 * series are aggregated over queues (a topic of 1,000 queues is one series), so a scrape of a broker with 10,000
 * queues yields a series per topic and group, not per queue. Names follow Apache RocketMQ 5's metrics where Apache
 * has the metric ({@code rocketmq_*}); Sluice's own figures are {@code sluice_*}; the JVM's are the Prometheus
 * client's standard {@code jvm_*} set. Every series carries the constant labels {@code cluster} and
 * {@code node_id} (the broker name), as Apache's do.
 *
 * <p>Stateless apart from the registry it fills; the callbacks run on the scraping thread.
 */
public final class BrokerMetrics {

    private static final String TOPIC = "topic";
    private static final String GROUP = "consumer_group";
    private static final double MS_PER_SECOND = 1000.0;

    private BrokerMetrics() {
    }

    /**
     * Registers every broker metric and the JVM metrics on {@code registry}.
     *
     * @param registry    where the metrics go
     * @param sources     what they read
     * @param clusterName the {@code cluster} label
     * @param brokerName  the {@code node_id} label
     */
    public static void register(PrometheusRegistry registry, MetricsSources sources, String clusterName,
                                String brokerName) {
        Registrar r = new Registrar(registry, constantLabels(clusterName, brokerName));
        registerTraffic(r, sources);
        registerClients(r, sources);
        registerStore(r, sources);
        registerKeyIndex(r, sources);
        registerTransport(r, sources.transport());
        JvmMetrics.builder().register(registry);
    }

    /** The labels every broker series carries: {@code cluster} and {@code node_id}, as Apache's do. */
    static Labels constantLabels(String clusterName, String brokerName) {
        return Labels.of("cluster", clusterName, "node_id", brokerName);
    }

    private static void registerTraffic(Registrar r, MetricsSources s) {
        r.counter("rocketmq_messages_in", "Messages stored per topic since the broker started.", cb ->
                s.stats().topicPutTotals().forEach((topic, total) -> cb.call(total, topic)), TOPIC);
        r.counter("rocketmq_messages_out", "Messages returned by pulls per topic and consumer group since the broker"
                + " started.", cb -> s.stats().consumeTotals().forEach((group, perTopic) ->
                perTopic.forEach((topic, total) -> cb.call(total, topic, group))), TOPIC, GROUP);
        r.gauge("rocketmq_consumer_lag_messages", "Messages stored and not yet committed by the consumer group,"
                + " summed over the topic's queues.", cb -> lag(s).forEach((group, perTopic) ->
                perTopic.forEach((topic, lag) -> cb.call(lag, topic, group))), TOPIC, GROUP);
        r.counter("sluice_store_messages", "Messages stored by this process (an unpacked batch counts its"
                + " messages).", cb -> cb.call(s.store().stats().appendedMessages()));
        r.counter("sluice_pull_transferred_bytes", "Record bytes returned by pulls since the broker started.",
                cb -> cb.call(s.pulledBytes().getAsLong()));
    }

    private static void registerClients(Registrar r, MetricsSources s) {
        r.gauge("rocketmq_producer_connections", "Connections of online producers.", cb -> {
            int connections = 0;
            for (String group : s.clients().producerGroups()) {
                connections += s.clients().producerConnections(group).size();
            }
            cb.call(connections);
        });
        r.gauge("rocketmq_consumer_connections", "Connections of online consumers per consumer group.", cb -> {
            for (String group : s.clients().consumerGroups()) {
                s.clients().consumerGroup(group).ifPresent(view -> cb.call(view.connections().size(), group));
            }
        }, GROUP);
        r.gauge("rocketmq_topic_number", "Topics on the broker, system topics included.",
                cb -> cb.call(s.topics().table().topics().size()));
        r.gauge("rocketmq_consumer_group_number", "Subscription groups on the broker.",
                cb -> cb.call(s.groups().all().size()));
        r.gauge("rocketmq_broker_permission", "Broker-wide permission bits (4 read, 2 write).",
                cb -> cb.call(s.brokerPermission().getAsInt()));
    }

    private static void registerStore(Registrar r, MetricsSources s) {
        storeGauge(r, s, "sluice_commitlog_written_position_bytes", "End of the CommitLog (bytes ever appended).",
                StoreStats::writtenPosition);
        storeGauge(r, s, "sluice_commitlog_min_position_bytes", "First position still in the CommitLog (older"
                + " segments were deleted by retention).", StoreStats::minPosition);
        storeGauge(r, s, "sluice_commitlog_unflushed_bytes", "Bytes appended and not yet flushed to disk.",
                st -> Math.max(0, st.writtenPosition() - st.flushedPosition()));
        storeGauge(r, s, "sluice_dispatch_lag_bytes", "CommitLog bytes not yet indexed in consume queues.",
                StoreStats::dispatchLagBytes);
        storeGauge(r, s, "sluice_dispatch_lag_seconds", "Upper bound on how long the oldest undispatched record"
                + " has waited; 0 when caught up.", st -> st.dispatchLagMs() / MS_PER_SECOND);
        storeGauge(r, s, "sluice_disk_used_ratio", "Used fraction of the CommitLog's file system at the last"
                + " check; -1 if unknown.", StoreStats::diskUsedRatio);
        storeGauge(r, s, "sluice_disk_full", "1 while appends are refused because the disk is full.",
                st -> st.diskFull() ? 1 : 0);
        storeGauge(r, s, "sluice_store_writable", "1 while the store accepts appends.", st -> st.writable() ? 1 : 0);
        storeCounter(r, s, "sluice_store_refused_appends", "Appends refused or failed (disk full, storage"
                + " failure, message too large, ...).", StoreStats::refusedAppends);
        storeCounter(r, s, "sluice_dispatch_indexed_records", "Records given a consume-queue slot, recovery"
                + " included.", StoreStats::indexedRecords);
        storeCounter(r, s, "sluice_dispatch_damaged_log_places", "Places where dispatch found no valid record.",
                StoreStats::damagedLogPlaces);
        storeCounter(r, s, "sluice_dispatch_unindexable_records", "Valid records dispatch could not index.",
                StoreStats::unindexableRecords);
        storeCounter(r, s, "sluice_dispatch_inconsistent_records", "Records a consume queue refused as a gap or"
                + " conflict.", StoreStats::inconsistentRecords);
        storeCounter(r, s, "sluice_dispatch_errors", "Consume-queue I/O errors and dispatch failures.",
                StoreStats::dispatchErrors);
        storeCounter(r, s, "sluice_retention_deleted_segments", "CommitLog segments deleted by retention.",
                StoreStats::deletedSegments);
        storeCounter(r, s, "sluice_checkpoint_failures", "Checkpoints that could not be written.",
                StoreStats::checkpointFailures);
        storeGauge(r, s, "sluice_commitlog_segments", "Segment files of the CommitLog.",
                StoreStats::commitLogSegments);
        storeGauge(r, s, "sluice_commitlog_mapped_bytes", "Bytes of the CommitLog's segments, all memory-mapped:"
                + " what the page cache would hold to keep the whole log in memory.", StoreStats::commitLogMappedBytes);
        storeCounter(r, s, "sluice_commitlog_page_cache_released_bytes", "CommitLog bytes whose pages were handed"
                + " back to the kernel (commitLogPageCacheMaxBytes).", StoreStats::pageCacheReleasedBytes);
        r.registry().register(new FlushHistograms(() -> s.store().flushStats(), r.constant()));
    }

    /** The key index's own counters; its lookup latency is a histogram of {@link RequestTimers}. */
    private static void registerKeyIndex(Registrar r, MetricsSources s) {
        Supplier<KeyIndexStats> index = () -> s.store().keyIndexStats();
        r.counter("sluice_key_index_keys", "Keys (message keys and unique keys) written to the key index since the"
                + " broker started, recovery included.", cb -> cb.call(index.get().keys()));
        r.counter("sluice_key_index_skipped_keys", "Keys left out of records carrying more keys than the per-record"
                + " maximum.", cb -> cb.call(index.get().skippedKeys()));
        r.counter("sluice_key_index_failures", "Duty cycles of the key-index thread that failed (I/O).",
                cb -> cb.call(index.get().failures()));
        r.gauge("sluice_key_index_files", "Key-index files on disk.", cb -> cb.call(index.get().files()));
        r.gauge("sluice_key_index_lag_bytes", "CommitLog bytes whose keys are not indexed yet.", cb -> cb.call(
                Math.max(0, s.store().stats().writtenPosition() - index.get().indexedPosition())));
    }

    private static void registerTransport(Registrar r, RemotingCounters t) {
        r.gauge("sluice_connections", "Open client connections.",
                cb -> cb.call(t.connectionsOpened() - t.connectionsClosed()));
        r.counter("sluice_connections_opened", "Client connections accepted.", cb -> cb.call(t.connectionsOpened()));
        r.counter("sluice_requests", "Requests received (oneway included).", cb -> cb.call(t.requests()));
        r.counter("sluice_requests_refused_busy", "Requests answered SYSTEM_BUSY because their queue was full.",
                cb -> cb.call(t.requestsRefusedBusy()));
        r.counter("sluice_requests_not_supported", "Requests with a code the broker does not serve.",
                cb -> cb.call(t.requestsNotSupported()));
        r.counter("sluice_handler_errors", "Requests whose handler failed unexpectedly.",
                cb -> cb.call(t.handlerErrors()));
        r.counter("sluice_frames_rejected", "Frames refused as malformed or too large.",
                cb -> cb.call(t.framesRejected()));
        r.counter("sluice_connections_closed_for_bad_input", "Connections closed because of malformed input.",
                cb -> cb.call(t.connectionsClosedForBadInput()));
        r.counter("sluice_response_write_failures", "Responses that could not be written.",
                cb -> cb.call(t.responseWriteFailures()));
        r.counter("sluice_read_pauses", "Times the transport stopped reading a connection at its in-flight limit.",
                cb -> cb.call(t.readPauses()));
    }

    /** Committed-offset lag per group and topic: store max offset minus committed offset, summed over queues. */
    static Map<String, Map<String, Long>> lag(MetricsSources s) {
        Set<String> groups = new TreeSet<>(s.clients().consumerGroups());
        for (SubscriptionGroupConfig config : s.groups().all()) {
            groups.add(config.groupName());
        }
        Map<String, Map<String, Long>> lag = new TreeMap<>();
        for (String group : groups) {
            for (ConsumerOffset offset : s.metadata().offsetsOf(group)) {
                long behind = Math.max(0, s.store().maxOffset(offset.topic(), offset.queueId()) - offset.offset());
                lag.computeIfAbsent(group, g -> new TreeMap<>()).merge(offset.topic(), behind, Long::sum);
            }
        }
        return lag;
    }

    private static void storeGauge(Registrar r, MetricsSources s, String name, String help,
                                   ToDoubleFunction<StoreStats> value) {
        r.gauge(name, help, cb -> cb.call(value.applyAsDouble(s.store().stats())));
    }

    private static void storeCounter(Registrar r, MetricsSources s, String name, String help,
                                     ToDoubleFunction<StoreStats> value) {
        r.counter(name, help, cb -> cb.call(value.applyAsDouble(s.store().stats())));
    }

    /** Builds callback metrics with the constant labels onto one registry. */
    private record Registrar(PrometheusRegistry registry, Labels constant) {

        void counter(String name, String help, Consumer<CounterWithCallback.Callback> callback,
                     String... labelNames) {
            CounterWithCallback.builder().name(name).help(help).constLabels(constant).labelNames(labelNames)
                    .callback(callback).register(registry);
        }

        void gauge(String name, String help, Consumer<GaugeWithCallback.Callback> callback, String... labelNames) {
            GaugeWithCallback.builder().name(name).help(help).constLabels(constant).labelNames(labelNames)
                    .callback(callback).register(registry);
        }
    }
}
