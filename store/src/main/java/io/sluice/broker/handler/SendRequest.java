package io.sluice.broker.handler;

import io.sluice.remoting.protocol.RemotingCommand;
import io.sluice.remoting.protocol.RequestCode;

/**
 * The header of a send request, read from either spelling: SEND_MESSAGE (10) uses the long field names,
 * SEND_MESSAGE_V2 (310) and SEND_BATCH_MESSAGE (320) the one-letter V2 keys, {@code a} to {@code m} (no {@code k})
 * in the order of the components below (table: docs/wire-protocol.md#send).
 *
 * <p>Immutable; thread-safe.
 *
 * @param producerGroup         producer group
 * @param topic                 target topic
 * @param defaultTopic          auto-create template topic
 * @param defaultTopicQueueNums queues to create on auto-create
 * @param queueId               target queue; negative lets the broker choose
 * @param sysFlag               message sysflag
 * @param bornTimestampMs       producer clock at sending
 * @param flag                  user flag
 * @param properties            encoded properties string, never null
 * @param reconsumeTimes        times reconsumed (retry sends)
 * @param maxReconsumeTimes     reconsume limit of a retry send, or -1
 * @param batch                 the body is a batch body
 */
record SendRequest(String producerGroup, String topic, String defaultTopic, int defaultTopicQueueNums, int queueId,
                   int sysFlag, long bornTimestampMs, int flag, String properties, int reconsumeTimes,
                   int maxReconsumeTimes, boolean batch) {

    /**
     * Reads the header.
     *
     * @throws io.sluice.remoting.protocol.MalformedHeaderException naming the field that is missing or not a number
     */
    static SendRequest parse(RemotingCommand request) {
        boolean v2 = request.code() != RequestCode.SEND_MESSAGE;
        boolean batch = request.code() == RequestCode.SEND_BATCH_MESSAGE
                || request.optionalBoolean(v2 ? "m" : "batch", false);
        return new SendRequest(
                request.requireString(v2 ? "a" : "producerGroup"),
                request.requireString(v2 ? "b" : "topic"),
                request.requireString(v2 ? "c" : "defaultTopic"),
                request.requireInt(v2 ? "d" : "defaultTopicQueueNums"),
                request.requireInt(v2 ? "e" : "queueId"),
                request.requireInt(v2 ? "f" : "sysFlag"),
                request.requireLong(v2 ? "g" : "bornTimestamp"),
                request.requireInt(v2 ? "h" : "flag"),
                request.optionalString(v2 ? "i" : "properties", ""),
                request.optionalInt(v2 ? "j" : "reconsumeTimes", 0),
                request.optionalInt(v2 ? "l" : "maxReconsumeTimes", -1),
                batch);
    }
}
