/**
 * Client internals, not API: codecs and their layout descriptors, the client runtime (connections, timer, routes,
 * heartbeats), the routed sender and auto-batch accumulator, and the consumer engines (pull chains, rebalance, offsets,
 * consume dispatch).
 */
package io.sluice.client.internal;
