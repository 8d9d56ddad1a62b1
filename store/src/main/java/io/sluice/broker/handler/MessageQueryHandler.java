package io.sluice.broker.handler;

import io.sluice.broker.topic.TopicRegistry;
import io.sluice.remoting.protocol.RemotingCommand;
import io.sluice.remoting.protocol.ResponseCode;
import io.sluice.remoting.transport.ConnectionContext;
import io.sluice.store.MessageStore;
import io.sluice.store.keyindex.KeyIndexStats;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Optional;
import org.agrona.concurrent.EpochClock;

/**
 * Message lookups for admin tools (docs/wire-protocol.md#message-queries): VIEW_MESSAGE_BY_ID (33), QUERY_MESSAGE (12).
 *
 * <ul>
 *   <li>33, header {@code offset} (the CommitLog position decoded from an offset message id): body = the stored
 *       record, byte for byte; SYSTEM_ERROR {@code can not find message by the offset, <offset>} when no record
 *       starts there.</li>
 *   <li>12, header {@code topic}, {@code key}, {@code maxNum}, {@code beginTimestamp}, {@code endTimestamp}, and
 *       {@code _UNIQUE_KEY_QUERY} ({@code "true"}: match {@code UNIQ_KEY}; otherwise match one of the
 *       space-separated {@code KEYS}), answered from the store's key index (every record within retention,
 *       store time in {@code [beginTimestamp, endTimestamp]}). Body = the matching records (at most
 *       {@code min(maxNum, }{@value #MAX_RESULTS}{@code )}); QUERY_NOT_FOUND when none matched. A BatchCQ inner
 *       batch matches on the batch's own properties. {@code indexLastUpdatePhyoffset} says how far the index
 *       has got.</li>
 * </ul>
 *
 * <p>Thread-safe; stateless apart from its collaborators. QUERY_MESSAGE reads an index file per span of the log and
 * checks each candidate record, so the composition root runs it on the admin executor; VIEW_MESSAGE_BY_ID is one read
 * and fits the connection's lane.
 */
public final class MessageQueryHandler {

    /** Most records one QUERY_MESSAGE returns (Apache's {@code maxMsgsNumBatch}). */
    static final int MAX_RESULTS = 64;

    private final MessageStore store;
    private final TopicRegistry topics;
    private final EpochClock clock;

    /**
     * @param store  where records are read
     * @param topics which queues a topic has
     * @param clock  stamps the query response
     */
    public MessageQueryHandler(MessageStore store, TopicRegistry topics, EpochClock clock) {
        this.store = store;
        this.topics = topics;
        this.clock = clock;
    }

    /** VIEW_MESSAGE_BY_ID (33). */
    public RemotingCommand onViewMessageById(ConnectionContext connection, RemotingCommand request) {
        long position = request.requireLong("offset");
        Optional<ByteBuffer> record = store.recordAt(position);
        if (record.isEmpty()) {
            return RemotingCommand.response(ResponseCode.SYSTEM_ERROR, "can not find message by the offset, "
                    + position);
        }
        return RemotingCommand.response(ResponseCode.SUCCESS, null).setBody(record.get());
    }

    /** QUERY_MESSAGE (12). */
    public RemotingCommand onQueryMessage(ConnectionContext connection, RemotingCommand request) {
        String topic = request.requireString("topic");
        String key = request.requireString("key");
        int maxNum = Math.min(Math.max(1, request.requireInt("maxNum")), MAX_RESULTS);
        long beginMs = request.optionalLong("beginTimestamp", 0);
        long endMs = request.optionalLong("endTimestamp", Long.MAX_VALUE);
        boolean byUniqueKey = request.optionalBoolean("_UNIQUE_KEY_QUERY", false);
        List<ByteBuffer> found = topics.find(topic).isPresent()
                ? store.findByKey(topic, key, byUniqueKey, beginMs, endMs, maxNum)
                : List.of();
        KeyIndexStats index = store.keyIndexStats();
        RemotingCommand response;
        if (!store.isKeyIndexEnabled()) {
            response = RemotingCommand.response(ResponseCode.QUERY_NOT_FOUND, "this broker keeps no key index"
                    + " (messageIndexEnable=false): messages cannot be found by key");
        } else if (found.isEmpty()) {
            response = RemotingCommand.response(ResponseCode.QUERY_NOT_FOUND, "no message of topic " + topic
                    + " with " + (byUniqueKey ? "unique key " : "key ") + key + " stored in the time range");
        } else {
            response = RemotingCommand.response(ResponseCode.SUCCESS, null).setBody(found.toArray(ByteBuffer[]::new));
        }
        return response.putExtField("indexLastUpdateTimestamp", clock.time())
                .putExtField("indexLastUpdatePhyoffset", index.indexedPosition());
    }
}
