package io.sluice.broker.handler;

import io.sluice.remoting.protocol.RemotingCommand;

/**
 * The header of PULL_MESSAGE (11) and LITE_PULL_MESSAGE (361) (docs/wire-protocol.md#pull).
 *
 * <p>Immutable; thread-safe.
 *
 * @param consumerGroup        the consumer group
 * @param topic                the topic
 * @param queueId              the queue
 * @param queueOffset          where to read from
 * @param maxMsgNums           most messages wanted
 * @param sysFlag              {@link #COMMIT_OFFSET}, {@link #SUSPEND}, {@link #SUBSCRIPTION} bits
 * @param commitOffset         the consumer's offset to commit (with {@link #COMMIT_OFFSET})
 * @param suspendTimeoutMillis how long the broker may park the pull
 * @param subscription         the expression (with {@link #SUBSCRIPTION}), or null
 * @param subVersion           the client's subscription version
 * @param expressionType       {@code TAG} (default) or {@code SQL92}
 */
record PullRequest(String consumerGroup, String topic, int queueId, long queueOffset, int maxMsgNums, int sysFlag,
                   long commitOffset, long suspendTimeoutMillis, String subscription, long subVersion,
                   String expressionType) {

    /** sysFlag bit: commit {@code commitOffset}. */
    static final int COMMIT_OFFSET = 0x1;
    /** sysFlag bit: the broker may park the pull. */
    static final int SUSPEND = 0x2;
    /** sysFlag bit: the request carries its subscription expression. */
    static final int SUBSCRIPTION = 0x4;

    /** The tag expression type. */
    static final String TAG = "TAG";

    /**
     * Reads the header.
     *
     * @throws io.sluice.remoting.protocol.MalformedHeaderException naming the field that is missing or not a number
     */
    static PullRequest parse(RemotingCommand request) {
        return new PullRequest(
                request.requireString("consumerGroup"),
                request.requireString("topic"),
                request.requireInt("queueId"),
                request.requireLong("queueOffset"),
                request.requireInt("maxMsgNums"),
                request.requireInt("sysFlag"),
                request.optionalLong("commitOffset", -1),
                request.optionalLong("suspendTimeoutMillis", 0),
                request.extField("subscription"),
                request.optionalLong("subVersion", 0),
                request.optionalString("expressionType", TAG));
    }

    boolean hasFlag(int bit) {
        return (sysFlag & bit) != 0;
    }

    boolean isTagExpression() {
        return expressionType == null || TAG.equals(expressionType);
    }
}
