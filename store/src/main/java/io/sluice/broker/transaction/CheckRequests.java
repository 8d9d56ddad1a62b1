package io.sluice.broker.transaction;

import io.sluice.broker.schedule.StoredMessage;
import io.sluice.remoting.protocol.RemotingCommand;
import io.sluice.remoting.protocol.RequestCode;
import io.sluice.format.MessageProperties;
import io.sluice.format.RecordDescriptor;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * CHECK_TRANSACTION_STATE (39), broker to producer, oneway. Header: {@code topic} (the real topic),
 * {@code tranStateTableOffset} (the half message's queue offset), {@code commitLogOffset} (its position),
 * {@code msgId} and {@code transactionId} (its {@code UNIQ_KEY}), {@code offsetMsgId}, {@code brokerName}. Body: the
 * half message's stored record with its real topic and queue id in place of the half topic's, as Apache sends it;
 * the client answers END_TRANSACTION with the header's two offsets.
 *
 * <p>Stateless; thread-safe.
 */
final class CheckRequests {

    private CheckRequests() {
    }

    /**
     * The request asking the producer about {@code half}.
     *
     * @param half   the decoded half message
     * @param record the half message's stored record (position at its first byte)
     * @param real   where a commit delivers it
     */
    static RemotingCommand build(StoredMessage half, ByteBuffer record, HalfMessages.RealQueue real,
                                 String brokerName) {
        String uniqKey = half.property(MessageProperties.UNIQ_KEY);
        RemotingCommand request = RemotingCommand.request(RequestCode.CHECK_TRANSACTION_STATE)
                .putExtField("topic", real.topic())
                .putExtField("tranStateTableOffset", half.queueOffset())
                .putExtField("commitLogOffset", half.position())
                .putExtField("offsetMsgId", half.offsetMsgId())
                .putExtField("brokerName", brokerName);
        if (uniqKey != null) {
            request.putExtField("msgId", uniqKey).putExtField("transactionId", uniqKey);
        }
        request.markOneway();
        return request.setBody(withRealQueue(record, real));
    }

    /**
     * A copy of a well-formed record (as {@link StoredMessage#decode} accepted it) with TOPIC, TOPICLENGTH,
     * QUEUEID and TOTALSIZE rewritten for {@code real}; the record as it is when the real topic does not fit its
     * TOPICLENGTH field.
     */
    static byte[] withRealQueue(ByteBuffer record, HalfMessages.RealQueue real) {
        ByteBuffer r = record.duplicate().order(RecordDescriptor.BYTE_ORDER);
        int base = r.position();
        int totalSize = r.getInt(base + RecordDescriptor.TOTAL_SIZE_OFFSET);
        int magic = r.getInt(base + RecordDescriptor.MAGIC_OFFSET);
        int sysFlag = r.getInt(base + RecordDescriptor.SYS_FLAG_OFFSET);
        int bodyLengthAt = base + RecordDescriptor.bodyLengthOffset(sysFlag);
        int topicLengthAt = bodyLengthAt + Integer.BYTES + r.getInt(bodyLengthAt);
        int lengthBytes = RecordDescriptor.topicLengthBytes(magic);
        int oldTopicLength = lengthBytes == Short.BYTES ? r.getShort(topicLengthAt) : r.get(topicLengthAt);
        int tailAt = topicLengthAt + lengthBytes + oldTopicLength;
        int tailLength = base + totalSize - tailAt;
        byte[] topic = real.topic().getBytes(StandardCharsets.UTF_8);
        int maxTopicBytes = lengthBytes == Short.BYTES ? RecordDescriptor.MAX_TOPIC_BYTES
                : RecordDescriptor.MAX_V1_TOPIC_BYTES;
        if (topic.length > maxTopicBytes) {
            byte[] unchanged = new byte[totalSize];
            r.get(base, unchanged);
            return unchanged;
        }
        int headLength = topicLengthAt - base;
        int newTotal = headLength + lengthBytes + topic.length + tailLength;
        ByteBuffer out = ByteBuffer.allocate(newTotal).order(RecordDescriptor.BYTE_ORDER);
        byte[] head = new byte[headLength];
        r.get(base, head);
        out.put(head);
        if (lengthBytes == Short.BYTES) {
            out.putShort((short) topic.length);
        } else {
            out.put((byte) topic.length);
        }
        out.put(topic);
        byte[] tail = new byte[tailLength];
        r.get(tailAt, tail);
        out.put(tail);
        out.putInt(RecordDescriptor.TOTAL_SIZE_OFFSET, newTotal);
        out.putInt(RecordDescriptor.QUEUE_ID_OFFSET, real.queueId());
        return out.array();
    }
}
