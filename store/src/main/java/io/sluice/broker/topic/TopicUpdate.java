package io.sluice.broker.topic;

/**
 * An UPDATE_AND_CREATE_TOPIC request as received, before validation. Field names and meanings are the request
 * header's (docs/wire-protocol.md#topic-administration).
 *
 * <p>Immutable; thread-safe.
 *
 * @param topic           the topic name
 * @param readQueueNums   read queue count
 * @param writeQueueNums  write queue count
 * @param perm            permission bits
 * @param topicFilterType {@code SINGLE_TAG} or {@code MULTI_TAG}; null means SINGLE_TAG
 * @param topicSysFlag    Apache's topic sysflag bits
 * @param order           whether the topic is ordered
 * @param attributes      the attribute string, e.g. {@code +queue.type=BatchCQ}; null or blank for none
 */
public record TopicUpdate(String topic, int readQueueNums, int writeQueueNums, int perm, String topicFilterType,
                          int topicSysFlag, boolean order, String attributes) {
}
