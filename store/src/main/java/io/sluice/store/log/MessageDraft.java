package io.sluice.store.log;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;

/**
 * What a producer asked to store, before the log assigns positions, offsets and the store timestamp.
 *
 * <p>Nothing is validated here: {@link CommitLog#append(MessageDraft)} answers bad drafts with a status
 * (MESSAGE_ILLEGAL, PROPERTIES_SIZE_EXCEEDED) and writes nothing. The body is read between its position and
 * limit and never moved; the bytes are copied into the log before {@code append} returns, so the caller may
 * reuse the buffer as soon as it does.
 *
 * <p>Immutable apart from the body buffer, which the caller owns.
 *
 * @param topic                     the topic (at most 127 bytes; 255 for {@code %RETRY%} and {@code %DLQ%} topics)
 * @param queueId                   the queue id, 0..{@value QueueOffsetTable#MAX_QUEUE_ID}
 * @param flag                      the producer's flag ({@code Message.flag}); ignored for UNPACKED_BATCH
 *                                  (each entry has its own)
 * @param sysFlag                   the producer's SYSFLAG; the log sets the IPv6 host bits itself and, for
 *                                  INNER_BATCH, NEED_UNWRAP | INNER_BATCH
 * @param bornTimestampMs           producer clock when the message was sent
 * @param bornHost                  the producer connection's peer address (resolved)
 * @param reconsumeTimes            times already reconsumed (retry topics)
 * @param preparedTransactionOffset transactions only; 0 otherwise
 * @param body                      the body, or for batches the SEND_BATCH_MESSAGE body
 * @param propertiesText            the encoded properties string as received ({@code null} is treated as empty)
 * @param kind                      how to store it
 */
public record MessageDraft(
        String topic,
        int queueId,
        int flag,
        int sysFlag,
        long bornTimestampMs,
        InetSocketAddress bornHost,
        int reconsumeTimes,
        long preparedTransactionOffset,
        ByteBuffer body,
        String propertiesText,
        AppendKind kind) {

    public MessageDraft {
        if (propertiesText == null) {
            propertiesText = "";
        }
    }

    /** A builder with flag 0, sysFlag 0, no reconsumes, no transaction, kind SINGLE. */
    public static Builder builder(String topic, int queueId) {
        return new Builder(topic, queueId);
    }

    /** This draft with another kind. */
    public MessageDraft withKind(AppendKind newKind) {
        return new MessageDraft(topic, queueId, flag, sysFlag, bornTimestampMs, bornHost, reconsumeTimes,
                preparedTransactionOffset, body, propertiesText, newKind);
    }

    /** Builds {@link MessageDraft}s; not thread-safe. */
    public static final class Builder {
        private final String topic;
        private final int queueId;
        private int flag;
        private int sysFlag;
        private long bornTimestampMs;
        private InetSocketAddress bornHost = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
        private int reconsumeTimes;
        private long preparedTransactionOffset;
        private ByteBuffer body = ByteBuffer.allocate(0);
        private String propertiesText = "";
        private AppendKind kind = AppendKind.SINGLE;

        private Builder(String topic, int queueId) {
            this.topic = topic;
            this.queueId = queueId;
        }

        public Builder flag(int value) {
            this.flag = value;
            return this;
        }

        public Builder sysFlag(int value) {
            this.sysFlag = value;
            return this;
        }

        public Builder bornTimestampMs(long value) {
            this.bornTimestampMs = value;
            return this;
        }

        public Builder bornHost(InetSocketAddress value) {
            this.bornHost = value;
            return this;
        }

        public Builder reconsumeTimes(int value) {
            this.reconsumeTimes = value;
            return this;
        }

        public Builder preparedTransactionOffset(long value) {
            this.preparedTransactionOffset = value;
            return this;
        }

        /** Wraps (does not copy) the array. */
        public Builder body(byte[] value) {
            this.body = value == null ? null : ByteBuffer.wrap(value);
            return this;
        }

        public Builder body(ByteBuffer value) {
            this.body = value;
            return this;
        }

        public Builder propertiesText(String value) {
            this.propertiesText = value;
            return this;
        }

        public Builder kind(AppendKind value) {
            this.kind = value;
            return this;
        }

        public MessageDraft build() {
            return new MessageDraft(topic, queueId, flag, sysFlag, bornTimestampMs, bornHost, reconsumeTimes,
                    preparedTransactionOffset, body, propertiesText, kind);
        }
    }
}
