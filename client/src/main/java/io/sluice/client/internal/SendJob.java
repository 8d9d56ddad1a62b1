package io.sluice.client.internal;

import io.sluice.format.BatchBodyDescriptor;
import io.sluice.format.MessageProperties;
import io.sluice.client.SendResult;
import io.sluice.remoting.protocol.RemotingCommand;
import io.sluice.remoting.protocol.RequestCode;
import io.sluice.remoting.protocol.body.MessageQueue;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One send request to make: a single message (SEND_MESSAGE_V2) or a batch (SEND_BATCH_MESSAGE), its target queue
 * if the caller fixed one, and who to tell the outcome. Immutable apart from the outcome, which it reports to once;
 * thread-safe.
 *
 * <p>A batch job owns its {@link BatchBody}: every attempt's request carries a reference of its own, and the job
 * gives up the body's own reference when it tells its outcome ({@link #succeeded}, {@link #failed}).
 */
public final class SendJob {
    private final String topic;
    private final MessageQueue fixedQueue;
    /** The body of a single message (from {@code bodyOffset}); null for a batch. */
    private final byte[] body;
    /** The body of a batch; null for a single message. */
    private final BatchBody batchBody;
    private final AtomicBoolean told;
    private final int bodyOffset;
    private final int bodyLength;
    private final List<String> uniqKeys;
    private final String properties;
    private final String propertiesWithoutUniqKey;
    private final int userFlag;
    private final BatchOutcome outcome;

    private SendJob(String topic, MessageQueue fixedQueue, byte[] body, BatchBody batchBody,
                    int bodyOffset, int bodyLength, List<String> uniqKeys, String properties,
                    String propertiesWithoutUniqKey, int userFlag, BatchOutcome outcome) {
        this.topic = topic;
        this.fixedQueue = fixedQueue;
        this.body = body;
        this.batchBody = batchBody;
        this.told = new AtomicBoolean();
        this.bodyOffset = bodyOffset;
        this.bodyLength = bodyLength;
        this.uniqKeys = uniqKeys;
        this.properties = properties;
        this.propertiesWithoutUniqKey = propertiesWithoutUniqKey;
        this.userFlag = userFlag;
        this.outcome = Objects.requireNonNull(outcome, "outcome");
    }

    /** A single-message send; its properties travel in the header, its body as the request body. */
    public static SendJob single(EncodedMessage message, MessageQueue fixedQueue, BatchOutcome outcome) {
        byte[] entry = message.entry();
        int bodyLength = ByteBuffer.wrap(entry).getInt(BatchBodyDescriptor.BODY_LENGTH_OFFSET);
        int propertiesIndex = BatchBodyDescriptor.BODY_OFFSET + bodyLength + Short.BYTES;
        String properties = new String(entry, propertiesIndex, entry.length - propertiesIndex, StandardCharsets.UTF_8);
        return new SendJob(message.message().topic(), fixedQueue, entry, null, BatchBodyDescriptor.BODY_OFFSET,
                bodyLength, List.of(message.uniqKey()), properties, properties, message.message().flag(), outcome);
    }

    /**
     * This single-message job as the half message of a transaction: {@code TRAN_MSG=true} and
     * {@code PGROUP=producerGroup} added to its header properties, which the broker stores as a half message until
     * END_TRANSACTION decides it.
     */
    public SendJob asPreparedTransaction(String producerGroup) {
        if (isBatch()) {
            throw new IllegalArgumentException("a batch cannot be a transaction (topic " + topic + ")");
        }
        StringBuilder text = new StringBuilder(properties);
        MessageProperties.appendPair(text, MessageProperties.TRAN_MSG, "true");
        MessageProperties.appendPair(text, MessageProperties.PGROUP, producerGroup);
        String prepared = text.toString();
        return new SendJob(topic, fixedQueue, body, null, bodyOffset, bodyLength, uniqKeys, prepared, prepared,
                userFlag, outcome);
    }

    /**
     * A batch send of the entries in {@code body}, which nobody may write afterwards: the job takes it over and
     * releases it once its outcome is told. When this throws, the body stays the caller's.
     *
     * @param topic the topic shared by every message
     * @param body the messages in batch order; not empty
     * @param uniqKey the batch's own UNIQ_KEY
     * @param tags the tag shared by every message, or null
     * @param waitStoreMsgOk the WAIT value shared by every message
     */
    public static SendJob batch(String topic, MessageQueue fixedQueue, BatchBody body, String uniqKey, String tags,
                                boolean waitStoreMsgOk, BatchOutcome outcome) {
        if (body.count() == 0) {
            throw new IllegalArgumentException("a batch of topic " + topic + " without messages");
        }
        StringBuilder shared = new StringBuilder(64);
        MessageProperties.appendPair(shared, MessageProperties.WAIT, Boolean.toString(waitStoreMsgOk));
        if (tags != null) {
            MessageProperties.appendPair(shared, MessageProperties.TAGS, tags);
        }
        StringBuilder withKey = MessageProperties.appendPair(new StringBuilder(96), MessageProperties.UNIQ_KEY, uniqKey)
                .append(shared);
        return new SendJob(topic, fixedQueue, null, body, 0, body.sizeBytes(), body.uniqKeys(),
                withKey.toString(), shared.toString(), 0, outcome);
    }

    /**
     * The same send, telling {@code other} its outcome. A batch job's body goes to the new job: this one must
     * then be neither sent nor told an outcome (the body would be released twice).
     */
    public SendJob withOutcome(BatchOutcome other) {
        return new SendJob(topic, fixedQueue, body, batchBody, bodyOffset, bodyLength, uniqKeys, properties,
                propertiesWithoutUniqKey, userFlag, other);
    }

    public String topic() {
        return topic;
    }

    /** The queue the caller chose, or null to let the producer pick one. */
    public MessageQueue fixedQueue() {
        return fixedQueue;
    }

    /** The UNIQ_KEY of every message, in batch order. */
    public List<String> uniqKeys() {
        return uniqKeys;
    }

    public boolean isBatch() {
        return batchBody != null;
    }

    /** The request code. */
    public int requestCode() {
        return isBatch() ? RequestCode.SEND_BATCH_MESSAGE : RequestCode.SEND_MESSAGE_V2;
    }

    /** The header properties ({@code i}); for a batch they carry the batch UNIQ_KEY. */
    public String properties() {
        return properties;
    }

    /**
     * The header properties for a batch to a SimpleCQ topic: without the batch UNIQ_KEY, which such a broker may
     * copy into every message (see {@link TopicKinds}).
     */
    public String propertiesWithoutUniqKey() {
        return propertiesWithoutUniqKey;
    }

    /** The header user flag ({@code h}). */
    public int userFlag() {
        return userFlag;
    }

    /**
     * Sets the body of one attempt's {@code request}: a view of a single message's bytes, or a fresh reference to
     * a batch's, which the request then holds (the transport releases it).
     */
    public RemotingCommand attachBody(RemotingCommand request) {
        if (batchBody != null) {
            return request.setBody(batchBody.retainedBytes());
        }
        return request.setBody(ByteBuffer.wrap(body, bodyOffset, bodyLength));
    }

    /** Tells the outcome: every message was stored, with {@code results} in job order. */
    public void succeeded(List<SendResult> results) {
        try {
            outcome.succeeded(results);
        } finally {
            releaseBody();
        }
    }

    /** Tells the outcome: the job failed with {@code error}. */
    public void failed(Throwable error) {
        try {
            outcome.failed(error);
        } finally {
            releaseBody();
        }
    }

    private void releaseBody() {
        if (batchBody != null && told.compareAndSet(false, true)) {
            batchBody.release();
        }
    }
}
