package io.sluice.broker.meta;

import io.sluice.format.ConsumeQueueType;
import io.sluice.format.TopicFilterType;
import io.sluice.store.TopicNames;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * The configuration of one topic on this broker, with Apache RocketMQ's fields and meanings.
 *
 * <p>The constructor keeps {@code queueType} and the {@value ConsumeQueueType#ATTRIBUTE_KEY} attribute (what the wire
 * and the stored JSON carry) equal: a null {@code queueType} comes from the attribute (default SimpleCQ), BatchCQ adds
 * the attribute, a SimpleCQ topic created without it keeps none, as Apache does. Validated here: the name ({@link
 * TopicNames#validate}), queue counts {@code 1..}{@value #MAX_QUEUE_NUMS}, {@link TopicPerm} bits; attribute keys are
 * checked when a request changes them ({@link TopicAttributes}), so newer configs still load.
 *
 * <p>Immutable; thread-safe.
 *
 * @param topicName       topic name
 * @param readQueueNums   number of queues consumers read (queue ids {@code 0..readQueueNums-1})
 * @param writeQueueNums  number of queues producers write
 * @param perm            permission bits, see {@link TopicPerm}
 * @param topicFilterType single or multi tag
 * @param topicSysFlag    Apache's topic sysflag bits (unit flags); 0 normally
 * @param order           whether the topic is declared ordered
 * @param queueType       SimpleCQ or BatchCQ indexing
 * @param attributes      topic attributes without the {@code +} prefix, sorted, unmodifiable
 */
public record TopicConfig(String topicName, int readQueueNums, int writeQueueNums, int perm,
                          TopicFilterType topicFilterType, int topicSysFlag, boolean order, ConsumeQueueType queueType,
                          Map<String, String> attributes) {

    /**
     * Largest number of read or write queues of one topic. Apache imposes no cap; Sluice keeps one so that a
     * typing mistake cannot create a million queue directories, while leaving room for topics with tens of
     * thousands of partitions (65,535 = the largest unsigned 16-bit number).
     */
    public static final int MAX_QUEUE_NUMS = 65_535;

    /** Validates and normalises the components; see the class comment. */
    public TopicConfig {
        TopicNames.validate(topicName);
        checkQueueNums("readQueueNums", readQueueNums, topicName);
        checkQueueNums("writeQueueNums", writeQueueNums, topicName);
        TopicPerm.validate(perm);
        if (topicFilterType == null) {
            throw new IllegalArgumentException("topicFilterType must not be null (topic " + topicName + ")");
        }
        if (attributes == null) {
            throw new IllegalArgumentException("attributes must not be null (topic " + topicName + ")");
        }
        TreeMap<String, String> copy = new TreeMap<>();
        for (Map.Entry<String, String> e : attributes.entrySet()) {
            if (e.getKey() == null || e.getKey().isEmpty() || e.getValue() == null) {
                throw new IllegalArgumentException("attribute " + e.getKey() + "=" + e.getValue()
                        + " of topic " + topicName + " needs a non-empty key and a value");
            }
            copy.put(e.getKey(), e.getValue());
        }
        String declared = copy.get(ConsumeQueueType.ATTRIBUTE_KEY);
        if (declared != null) {
            ConsumeQueueType fromAttribute = ConsumeQueueType.fromAttribute(declared);
            if (queueType != null && queueType != fromAttribute) {
                throw new IllegalArgumentException("topic " + topicName + ": queueType " + queueType
                        + " contradicts attribute queue.type=" + declared);
            }
            queueType = fromAttribute;
            copy.put(ConsumeQueueType.ATTRIBUTE_KEY, fromAttribute.attributeValue());
        } else if (queueType == ConsumeQueueType.BATCH) {
            copy.put(ConsumeQueueType.ATTRIBUTE_KEY, ConsumeQueueType.BATCH.attributeValue());
        } else {
            queueType = ConsumeQueueType.SIMPLE;
        }
        attributes = Collections.unmodifiableMap(copy);
    }

    /**
     * An ordinary read-write topic: {@code queueNums} read and write queues, perm 6, SINGLE_TAG, not ordered.
     */
    public static TopicConfig of(String topicName, int queueNums, ConsumeQueueType queueType) {
        return new TopicConfig(topicName, queueNums, queueNums, TopicPerm.READ_WRITE, TopicFilterType.SINGLE_TAG, 0,
                false, queueType, Map.of());
    }

    /** This config with different queue counts. */
    public TopicConfig withQueueNums(int newReadQueueNums, int newWriteQueueNums) {
        return new TopicConfig(topicName, newReadQueueNums, newWriteQueueNums, perm, topicFilterType, topicSysFlag,
                order, queueType, attributes);
    }

    /** This config with a different permission. */
    public TopicConfig withPerm(int newPerm) {
        return new TopicConfig(topicName, readQueueNums, writeQueueNums, newPerm, topicFilterType, topicSysFlag,
                order, queueType, attributes);
    }

    /**
     * This config with a new attribute map. The queue type follows the map; a map without {@code queue.type}
     * makes the topic SimpleCQ.
     */
    public TopicConfig withAttributes(Map<String, String> newAttributes) {
        return new TopicConfig(topicName, readQueueNums, writeQueueNums, perm, topicFilterType, topicSysFlag, order,
                null, newAttributes);
    }

    /** Number of queues that exist: {@code max(readQueueNums, writeQueueNums)}. */
    public int queueCount() {
        return Math.max(readQueueNums, writeQueueNums);
    }

    /**
     * True when {@code queueId} names an existing queue: {@code 0 <= queueId < max(read, write)}. A send or pull
     * to any other id is INVALID_PARAMETER.
     */
    public boolean isValidQueueId(int queueId) {
        return queueId >= 0 && queueId < queueCount();
    }

    /**
     * Checks a queue id.
     *
     * @return {@code queueId}, for chaining
     * @throws IllegalArgumentException naming the id, the topic and the valid range
     */
    public int checkQueueId(int queueId) {
        if (!isValidQueueId(queueId)) {
            throw new IllegalArgumentException("request queueId[" + queueId + "] is illegal, topic " + topicName
                    + " has queue ids 0.." + (queueCount() - 1));
        }
        return queueId;
    }

    /** True when the READ permission bit is set. */
    public boolean isReadable() {
        return TopicPerm.isReadable(perm);
    }

    /** True when the WRITE permission bit is set. */
    public boolean isWriteable() {
        return TopicPerm.isWriteable(perm);
    }

    private static void checkQueueNums(String field, int value, String topicName) {
        if (value < 1 || value > MAX_QUEUE_NUMS) {
            throw new IllegalArgumentException(field + " " + value + " of topic " + topicName
                    + " is out of range 1.." + MAX_QUEUE_NUMS);
        }
    }
}
