package io.sluice.broker.metrics;

import io.sluice.broker.client.ClientRegistry;
import io.sluice.broker.client.SubscriptionGroups;
import io.sluice.broker.stats.BrokerStats;
import io.sluice.broker.topic.TopicRegistry;
import io.sluice.remoting.transport.RemotingCounters;
import io.sluice.store.MessageStore;
import io.sluice.broker.meta.MetadataStore;
import java.util.function.IntSupplier;
import java.util.function.LongSupplier;

/**
 * What the metrics read at scrape time. Every source is thread-safe and cheap to read (counters, memory maps,
 * consume-queue ends); committed offsets are read from the metadata store.
 *
 * @param store             positions, disk, dispatch and append counters; queue ends for consumer lag
 * @param metadata          committed consumer offsets
 * @param topics            the topic table
 * @param groups            subscription group configs
 * @param clients           online producers and consumers
 * @param stats             put and get totals per topic and group
 * @param transport         the server's request and connection counters
 * @param pulledBytes       record bytes returned by pulls so far
 * @param brokerPermission  the broker-wide permission bits
 */
public record MetricsSources(MessageStore store, MetadataStore metadata, TopicRegistry topics,
                             SubscriptionGroups groups, ClientRegistry clients, BrokerStats stats,
                             RemotingCounters transport, LongSupplier pulledBytes, IntSupplier brokerPermission) {
}
