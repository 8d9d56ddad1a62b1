package io.sluice.client.internal;

import io.sluice.client.ClientException;
import io.sluice.client.SendResult;
import io.sluice.client.SendStatus;
import io.sluice.remoting.protocol.RemotingCommand;
import io.sluice.remoting.protocol.ResponseCode;
import io.sluice.remoting.protocol.body.MessageQueue;
import java.util.AbstractList;
import java.util.List;
import java.util.RandomAccess;

/**
 * Turns a "stored" send response into one {@link SendResult} per message (docs/wire-protocol.md#send-response,
 * docs/wire-protocol.md#send-retries):
 * <ul>
 *   <li>{@code batchUniqId} present (BatchCQ inner batch): message {@code i} gets offset {@code queueOffset + i} and
 *       the one record id as its offset id;</li>
 *   <li>otherwise {@code msgId} lists one offset id per message, comma-joined; message {@code i} gets the
 *       {@code i}-th id and offset {@code queueOffset + i}.</li>
 * </ul>
 * Every message keeps its own UNIQ_KEY as {@code msgId}. Stateless; thread-safe.
 */
public final class SendResponses {

    private SendResponses() {
    }

    /** The status of a response code that means "stored", or null for any other code. */
    public static SendStatus storedStatus(int code) {
        return switch (code) {
            case ResponseCode.SUCCESS -> SendStatus.SEND_OK;
            case ResponseCode.FLUSH_DISK_TIMEOUT -> SendStatus.FLUSH_DISK_TIMEOUT;
            case ResponseCode.FLUSH_SLAVE_TIMEOUT -> SendStatus.FLUSH_SLAVE_TIMEOUT;
            case ResponseCode.SLAVE_NOT_AVAILABLE -> SendStatus.SLAVE_NOT_AVAILABLE;
            default -> null;
        };
    }

    /** True for the codes after which a send is retried (on another broker when possible). */
    public static boolean isRetryable(int code) {
        return switch (code) {
            case ResponseCode.TOPIC_NOT_EXIST, ResponseCode.SERVICE_NOT_AVAILABLE, ResponseCode.SYSTEM_ERROR,
                 ResponseCode.NO_PERMISSION, ResponseCode.NO_BUYER_ID, ResponseCode.NOT_IN_CURRENT_UNIT,
                 ResponseCode.SYSTEM_BUSY, ResponseCode.GO_AWAY -> true;
            default -> false;
        };
    }

    /**
     * Splits a stored response.
     *
     * @param response the response; its code must be one of the stored codes
     * @param brokerName the broker the request went to
     * @param topic the topic sent to
     * @param uniqKeys the UNIQ_KEYs of the request's messages, in order
     * @throws ClientException naming the problem when the response lacks a field or its ids do not match the
     *     message count
     */
    public static List<SendResult> split(RemotingCommand response, String brokerName, String topic,
                                         List<String> uniqKeys) {
        SendStatus status = storedStatus(response.code());
        String msgIds = response.extField("msgId");
        String queueIdText = response.extField("queueId");
        String queueOffsetText = response.extField("queueOffset");
        if (status == null || msgIds == null || queueIdText == null || queueOffsetText == null) {
            throw new ClientException("illegal send response from " + brokerName + ": code " + response.code()
                    + ", header " + response.extFields());
        }
        int queueId;
        long base;
        try {
            queueId = Integer.parseInt(queueIdText);
            base = Long.parseLong(queueOffsetText);
        } catch (NumberFormatException e) {
            throw new ClientException("illegal send response from " + brokerName + ": header "
                    + response.extFields(), e);
        }
        MessageQueue queue = new MessageQueue(topic, brokerName, queueId);
        String batchUniqId = response.extField("batchUniqId");
        int count = uniqKeys.size();
        if (batchUniqId != null) {
            return new Results(status, uniqKeys, null, msgIds, queue, base, batchUniqId);
        }
        String[] ids = count == 1 ? new String[] {msgIds} : msgIds.split(",");
        if (ids.length != count) {
            throw new ClientException("illegal send response from " + brokerName + ": " + ids.length
                    + " message ids for a batch of " + count);
        }
        return new Results(status, uniqKeys, ids, null, queue, base, null);
    }

    /**
     * The results of one response, each made when it is asked for: a batch's caller is told each message's result
     * once, so the list is read once and a list of made results would be one more array per batch.
     */
    private static final class Results extends AbstractList<SendResult> implements RandomAccess {
        private final SendStatus status;
        private final List<String> uniqKeys;
        /** One offset id per message, or null when every message shares {@code sharedId}. */
        private final String[] ids;
        private final String sharedId;
        private final MessageQueue queue;
        private final long baseOffset;
        private final String batchUniqId;

        Results(SendStatus status, List<String> uniqKeys, String[] ids, String sharedId, MessageQueue queue,
                long baseOffset, String batchUniqId) {
            this.status = status;
            this.uniqKeys = uniqKeys;
            this.ids = ids;
            this.sharedId = sharedId;
            this.queue = queue;
            this.baseOffset = baseOffset;
            this.batchUniqId = batchUniqId;
        }

        @Override
        public SendResult get(int index) {
            return new SendResult(status, uniqKeys.get(index), ids == null ? sharedId : ids[index], queue,
                    baseOffset + index, batchUniqId);
        }

        @Override
        public int size() {
            return uniqKeys.size();
        }
    }
}
