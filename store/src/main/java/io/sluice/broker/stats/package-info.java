/**
 * Broker runtime statistics for the admin requests (GET_BROKER_RUNTIME_INFO, GET_TOPIC_STATS_INFO,
 * GET_CONSUME_STATS): message counters fed by the send and pull paths, rates sampled once a second, and the last
 * pull offset of each (group, topic, queue).
 */
package io.sluice.broker.stats;
