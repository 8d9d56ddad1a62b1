package io.sluice.client.internal;

import io.sluice.remoting.protocol.RequestCode;
import io.sluice.remoting.protocol.body.MessageQueue;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Objects;

/**
 * One send request to make: a single message (SEND_MESSAGE_V2) or a batch (SEND_BATCH_MESSAGE), its target queue
 * if the caller fixed one, and who to tell the outcome. Immutable apart from the outcome, which it reports to once;
 * thread-safe.
 */
public final class SendJob {
    private final String topic;
    private final MessageQueue fixedQueue;
    private final List<EncodedMessage> messages;
    private final boolean batch;
    private final String properties;
    private final String propertiesWithoutUniqKey;
    private final int userFlag;
    private final BatchOutcome outcome;

    private SendJob(String topic, MessageQueue fixedQueue, List<EncodedMessage> messages, boolean batch,
                    String properties, String propertiesWithoutUniqKey, int userFlag, BatchOutcome outcome) {
        this.topic = topic;
        this.fixedQueue = fixedQueue;
        this.messages = messages;
        this.batch = batch;
        this.properties = properties;
        this.propertiesWithoutUniqKey = propertiesWithoutUniqKey;
        this.userFlag = userFlag;
        this.outcome = Objects.requireNonNull(outcome, "outcome");
    }

    /** A single-message send; its properties travel in the header, its body as the request body. */
    public static SendJob single(EncodedMessage message, MessageQueue fixedQueue, BatchOutcome outcome) {
        byte[] entry = message.entry();
        int bodyLength = bodyLength(entry);
        int propertiesIndex = BatchEntryDescriptor.BODY_OFFSET + bodyLength + Short.BYTES;
        String properties = new String(entry, propertiesIndex, entry.length - propertiesIndex, StandardCharsets.UTF_8);
        return new SendJob(message.message().topic(), fixedQueue, List.of(message), false, properties, properties,
                message.message().flag(), outcome);
    }

    /**
     * A batch send.
     *
     * @param topic the topic shared by every message
     * @param messages the messages in batch order; not empty
     * @param uniqKey the batch's own UNIQ_KEY
     * @param tags the tag shared by every message, or null
     * @param waitStoreMsgOk the WAIT value shared by every message
     */
    public static SendJob batch(String topic, MessageQueue fixedQueue, List<EncodedMessage> messages, String uniqKey,
                                String tags, boolean waitStoreMsgOk, BatchOutcome outcome) {
        StringBuilder shared = new StringBuilder(64);
        PropertyCodec.append(shared, PropertyKeys.WAIT, Boolean.toString(waitStoreMsgOk));
        if (tags != null) {
            PropertyCodec.append(shared, PropertyKeys.TAGS, tags);
        }
        StringBuilder withKey = PropertyCodec.append(new StringBuilder(96), PropertyKeys.UNIQ_KEY, uniqKey)
                .append(shared);
        return new SendJob(topic, fixedQueue, messages, true, withKey.toString(), shared.toString(), 0, outcome);
    }

    public String topic() {
        return topic;
    }

    /** The queue the caller chose, or null to let the producer pick one. */
    public MessageQueue fixedQueue() {
        return fixedQueue;
    }

    public List<EncodedMessage> messages() {
        return messages;
    }

    public boolean isBatch() {
        return batch;
    }

    /** The request code. */
    public int requestCode() {
        return batch ? RequestCode.SEND_BATCH_MESSAGE : RequestCode.SEND_MESSAGE_V2;
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

    /** Fresh views of the request body, one per call (each attempt needs its own positions). */
    public ByteBuffer[] body() {
        if (!batch) {
            byte[] entry = messages.get(0).entry();
            return new ByteBuffer[] {ByteBuffer.wrap(entry, BatchEntryDescriptor.BODY_OFFSET, bodyLength(entry))};
        }
        ByteBuffer[] parts = new ByteBuffer[messages.size()];
        for (int i = 0; i < parts.length; i++) {
            parts[i] = ByteBuffer.wrap(messages.get(i).entry());
        }
        return parts;
    }

    /** Bytes of the request body. */
    public long bodyBytes() {
        if (!batch) {
            return bodyLength(messages.get(0).entry());
        }
        long total = 0;
        for (EncodedMessage message : messages) {
            total += message.entryBytes();
        }
        return total;
    }

    /** Who is told the outcome. */
    public BatchOutcome outcome() {
        return outcome;
    }

    private static int bodyLength(byte[] entry) {
        return ByteBuffer.wrap(entry).getInt(BatchEntryDescriptor.BODY_LENGTH_OFFSET);
    }
}
