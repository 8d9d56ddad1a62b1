package io.sluice.broker.handler;

import io.sluice.broker.schedule.StoredMessage;
import io.sluice.broker.topic.TopicRegistry;
import io.sluice.remoting.protocol.RemotingCommand;
import io.sluice.remoting.protocol.ResponseCode;
import io.sluice.remoting.transport.ConnectionContext;
import io.sluice.store.GetResult;
import io.sluice.store.GetStatus;
import io.sluice.store.MessageStore;
import io.sluice.broker.meta.TopicConfig;
import io.sluice.format.MessageProperties;
import java.nio.ByteBuffer;
import java.util.ArrayList;
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
 *       space-separated {@code KEYS}). Sluice keeps no key index, so this scans the topic's queues from the first
 *       message stored at or after {@code beginTimestamp} up to {@code endTimestamp}, reading at most
 *       {@value #MAX_SCANNED_RECORDS} records per request; it finds recent messages (a unique-key query starts near
 *       the time encoded in the key), not old ones in a busy topic. Body = the matching records (at most
 *       {@code min(maxNum, }{@value #MAX_RESULTS}{@code )}); QUERY_NOT_FOUND when none matched. A BatchCQ inner
 *       batch matches on the batch's own properties.</li>
 * </ul>
 *
 * <p>Thread-safe; stateless apart from its collaborators. QUERY_MESSAGE reads many records, so the composition root
 * runs it on the admin executor; VIEW_MESSAGE_BY_ID is one read and fits the connection's lane.
 */
public final class MessageQueryHandler {

    /** Records one QUERY_MESSAGE may read before it answers with what it found. */
    static final int MAX_SCANNED_RECORDS = 200_000;
    /** Most records one QUERY_MESSAGE returns (Apache's {@code maxMsgsNumBatch}). */
    static final int MAX_RESULTS = 64;
    private static final int READ_BATCH = 32;
    private static final int READ_BYTES = 4 * 1024 * 1024;

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
        List<ByteBuffer> found = new ArrayList<>();
        Optional<TopicConfig> config = topics.find(topic);
        if (config.isPresent()) {
            Scan scan = new Scan(key, byUniqueKey, beginMs, endMs, maxNum, found);
            int queues = Math.max(config.get().readQueueNums(), config.get().writeQueueNums());
            for (int queueId = 0; queueId < queues && !scan.isDone(); queueId++) {
                scan.queue(topic, queueId);
            }
        }
        RemotingCommand response = found.isEmpty()
                ? RemotingCommand.response(ResponseCode.QUERY_NOT_FOUND, "no message of topic " + topic
                        + " with " + (byUniqueKey ? "unique key " : "key ") + key + " found in the "
                        + MAX_SCANNED_RECORDS + " most recent records scanned (this broker keeps no key index)")
                : RemotingCommand.response(ResponseCode.SUCCESS, null).setBody(found.toArray(ByteBuffer[]::new));
        return response.putExtField("indexLastUpdateTimestamp", clock.time())
                .putExtField("indexLastUpdatePhyoffset", store.stats().writtenPosition());
    }

    /** One QUERY_MESSAGE scan; used by one thread. */
    private final class Scan {
        private final String key;
        private final boolean byUniqueKey;
        private final long beginMs;
        private final long endMs;
        private final int maxNum;
        private final List<ByteBuffer> found;
        private int scanned;

        Scan(String key, boolean byUniqueKey, long beginMs, long endMs, int maxNum, List<ByteBuffer> found) {
            this.key = key;
            this.byUniqueKey = byUniqueKey;
            this.beginMs = beginMs;
            this.endMs = endMs;
            this.maxNum = maxNum;
            this.found = found;
        }

        boolean isDone() {
            return found.size() >= maxNum || scanned >= MAX_SCANNED_RECORDS;
        }

        void queue(String topic, int queueId) {
            long offset = store.offsetByTimestamp(topic, queueId, beginMs);
            long max = store.maxOffset(topic, queueId);
            while (offset < max && !isDone()) {
                GetResult read = store.getMessages(topic, queueId, offset, READ_BATCH, READ_BYTES, null);
                if (read.status() != GetStatus.FOUND) {
                    if (read.nextOffset() <= offset) {
                        return;
                    }
                    offset = read.nextOffset();
                    continue;
                }
                for (ByteBuffer record : read.records()) {
                    scanned++;
                    StoredMessage message = StoredMessage.decode(record);
                    if (message.storeTimestampMs() > endMs) {
                        return;
                    }
                    if (message.storeTimestampMs() >= beginMs && matches(message)) {
                        found.add(record);
                        if (isDone()) {
                            return;
                        }
                    }
                }
                offset = read.nextOffset();
            }
        }

        private boolean matches(StoredMessage message) {
            if (byUniqueKey) {
                return key.equals(message.property(MessageProperties.UNIQ_KEY));
            }
            String keys = message.property(MessageProperties.KEYS);
            if (keys == null) {
                return false;
            }
            for (String k : keys.split(" ")) {
                if (key.equals(k)) {
                    return true;
                }
            }
            return false;
        }
    }
}
