/**
 * Broker metadata: topic configurations, subscription groups, consumer offsets and small broker state
 * (delay/schedule progress), persisted in one RocksDB database ({@link io.sluice.broker.meta.MetadataStore}).
 * Also the permission rules for topics and groups that every writer of this metadata must respect; the naming
 * rules live in the engine ({@link io.sluice.store.TopicNames}), which checks them on every append and read.
 *
 * <p>Nothing here touches the network; the JSON shapes in {@link io.sluice.broker.meta.MetadataJson} are the
 * Apache RocketMQ shapes so that the broker can hand them to clients unchanged.
 */
package io.sluice.broker.meta;
