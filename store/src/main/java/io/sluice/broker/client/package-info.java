/**
 * The broker's view of its clients: producer and consumer group membership learned from heartbeats, consumer
 * subscriptions, channel expiry, and NOTIFY_CONSUMER_IDS_CHANGED to consumers when their group changes.
 */
package io.sluice.broker.client;
