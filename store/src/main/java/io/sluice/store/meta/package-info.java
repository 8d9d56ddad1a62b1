/**
 * Broker metadata kept by the store: topic configurations, subscription groups, consumer offsets and small
 * broker state (delay/schedule progress), persisted in one RocksDB database ({@link
 * io.sluice.store.meta.MetadataStore}). Also the naming and permission rules for topics and groups that every
 * writer of this metadata must respect.
 *
 * <p>Nothing here touches the network; the JSON shapes in {@link io.sluice.store.meta.MetadataJson} are the
 * Apache RocketMQ shapes so that the broker can hand them to clients unchanged.
 */
package io.sluice.store.meta;
