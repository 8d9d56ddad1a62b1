package io.sluice.store.log;

import io.sluice.format.MessageIdDescriptor;
import io.sluice.format.MalformedBatchException;
import io.sluice.format.BatchBodyDescriptor;
import io.sluice.format.MessageProperties;
import io.sluice.format.RecordDescriptor;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * Validates a {@link MessageDraft} and turns it into a {@link PreparedAppend}, outside the append lock.
 * Every rule that can refuse a draft lives here, so a refused draft never touches the log.
 *
 * <p>Thread-safe: any appending thread may call {@link #prepare} (its only state is two one-entry caches of
 * immutable entries, see below).
 */
final class DraftEncoder {

    private static final String RETRY_PREFIX = "%RETRY%";
    private static final String DLQ_PREFIX = "%DLQ%";
    private static final int HOST_FLAGS = RecordDescriptor.BORNHOST_V6_FLAG | RecordDescriptor.STOREHOST_V6_FLAG;
    private static final int BATCH_FLAGS = RecordDescriptor.NEED_UNWRAP_FLAG | RecordDescriptor.INNER_BATCH_FLAG;
    private static final byte[] NO_BYTES = new byte[0];

    private final int maxMessageBytes;
    private final int segmentBytes;
    private final int storeHostFlag;

    DraftEncoder(int maxMessageBytes, int segmentBytes, boolean storeHostIsV6) {
        this.maxMessageBytes = maxMessageBytes;
        this.segmentBytes = segmentBytes;
        this.storeHostFlag = storeHostIsV6 ? RecordDescriptor.STOREHOST_V6_FLAG : 0;
    }

    /** What {@link #prepare} makes of a draft: a {@link PreparedAppend} (PUT_OK), or a {@link Refusal}. */
    interface Outcome {
        AppendStatus status();
    }

    /** A refused draft; one shared instance per status. */
    record Refusal(AppendStatus status) implements Outcome {
        private static final Refusal[] BY_STATUS = new Refusal[AppendStatus.values().length];

        static {
            for (AppendStatus s : AppendStatus.values()) {
                BY_STATUS[s.ordinal()] = new Refusal(s);
            }
        }

        static Refusal of(AppendStatus status) {
            return BY_STATUS[status.ordinal()];
        }
    }

    /** A legal topic and its bytes. Immutable, so it may be shared through a plain field. */
    private record TopicBytes(String topic, byte[] bytes) {
    }

    /** A resolved host and its record bytes. Immutable, so it may be shared through a plain field. */
    private record HostBytes(InetSocketAddress host, byte[] bytes) {
    }

    /*
     * One-entry caches of the last topic and born host seen, so that a stream of drafts to one topic from one
     * connection validates and encodes them once. Written by any appending thread without synchronization: an
     * entry is immutable (final fields), so a reader sees either a complete entry or an older one, and a miss
     * just recomputes.
     */
    private TopicBytes lastTopic;
    private HostBytes lastBornHost;

    Outcome prepare(MessageDraft draft) {
        if (draft == null || draft.kind() == null || draft.body() == null
                || draft.queueId() < 0 || draft.queueId() > QueueOffsetTable.MAX_QUEUE_ID
                || draft.body().remaining() > maxMessageBytes
                || (draft.kind() != AppendKind.INNER_BATCH && (draft.sysFlag() & BATCH_FLAGS) != 0)) {
            return Refusal.of(AppendStatus.MESSAGE_ILLEGAL);
        }
        byte[] topicBytes = topicBytes(draft.topic());
        byte[] bornHostBytes = bornHostBytes(draft.bornHost());
        if (topicBytes.length == 0 || bornHostBytes.length == 0) {
            return Refusal.of(AppendStatus.MESSAGE_ILLEGAL);
        }
        int sysFlag = (draft.sysFlag() & ~HOST_FLAGS) | storeHostFlag
                | (bornHostBytes.length == RecordDescriptor.IPV6_HOST_BYTES ? RecordDescriptor.BORNHOST_V6_FLAG : 0);
        String text = draft.propertiesText();
        boolean waits = !MessageProperties.hasValue(text, MessageProperties.WAIT, "false");
        return switch (draft.kind()) {
            case SINGLE -> single(draft, topicBytes, sysFlag, bornHostBytes, waits);
            case INNER_BATCH -> innerBatch(draft, topicBytes, sysFlag | BATCH_FLAGS, bornHostBytes, waits);
            case UNPACKED_BATCH -> unpackedBatch(draft, topicBytes, sysFlag, bornHostBytes, waits);
        };
    }

    /** The topic's bytes, or an empty array when the topic is not legal. */
    private byte[] topicBytes(String topic) {
        TopicBytes cached = lastTopic;
        if (cached != null && cached.topic().equals(topic)) {
            return cached.bytes();
        }
        if (!isLegalTopic(topic)) {
            return NO_BYTES;
        }
        byte[] bytes = topic.getBytes(StandardCharsets.US_ASCII);
        lastTopic = new TopicBytes(topic, bytes);
        return bytes;
    }

    /** The host's record bytes, or an empty array when the host is missing or unresolved. */
    private byte[] bornHostBytes(InetSocketAddress host) {
        HostBytes cached = lastBornHost;
        if (cached != null && (cached.host() == host || cached.host().equals(host))) {
            return cached.bytes();
        }
        if (!isResolved(host)) {
            return NO_BYTES;
        }
        byte[] bytes = MessageIdDescriptor.hostBytes(host);
        lastBornHost = new HostBytes(host, bytes);
        return bytes;
    }

    private Outcome single(MessageDraft draft, byte[] topicBytes, int sysFlag, byte[] bornHostBytes,
                           boolean waits) {
        String text = draft.propertiesText();
        if (MessageProperties.findRange(text, MessageProperties.INNER_NUM) != MessageProperties.NOT_FOUND) {
            return Refusal.of(AppendStatus.MESSAGE_ILLEGAL);
        }
        byte[] properties = text.isEmpty() ? NO_BYTES : text.getBytes(StandardCharsets.UTF_8);
        if (properties.length > RecordDescriptor.MAX_PROPERTIES_BYTES) {
            return Refusal.of(AppendStatus.PROPERTIES_SIZE_EXCEEDED);
        }
        int tx = RecordDescriptor.transactionType(sysFlag);
        boolean assigns = tx != RecordDescriptor.TRANSACTION_PREPARED_TYPE
                && tx != RecordDescriptor.TRANSACTION_ROLLBACK_TYPE;
        return new PreparedAppend.Single(draft, topicBytes, sysFlag, bornHostBytes, assigns, waits, properties);
    }

    private Outcome innerBatch(MessageDraft draft, byte[] topicBytes, int sysFlag, byte[] bornHostBytes,
                               boolean waits) {
        if (RecordDescriptor.transactionType(sysFlag) != RecordDescriptor.TRANSACTION_NOT_TYPE) {
            return Refusal.of(AppendStatus.MESSAGE_ILLEGAL);
        }
        int innerNum;
        try {
            innerNum = BatchBodyDescriptor.count(draft.body());
        } catch (MalformedBatchException e) {
            return Refusal.of(AppendStatus.MESSAGE_ILLEGAL);
        }
        byte[] prefix = PreparedAppend.InnerBatch.propertiesPrefix(draft.propertiesText(), innerNum);
        if (prefix.length + PreparedAppend.InnerBatch.MAX_SUFFIX_BYTES > RecordDescriptor.MAX_PROPERTIES_BYTES) {
            return Refusal.of(AppendStatus.PROPERTIES_SIZE_EXCEEDED);
        }
        return new PreparedAppend.InnerBatch(draft, topicBytes, sysFlag, bornHostBytes, waits, innerNum, prefix);
    }

    private Outcome unpackedBatch(MessageDraft draft, byte[] topicBytes, int sysFlag, byte[] bornHostBytes,
                                  boolean waits) {
        if (RecordDescriptor.transactionType(sysFlag) != RecordDescriptor.TRANSACTION_NOT_TYPE
                || isDelayed(draft.propertiesText())) {
            return Refusal.of(AppendStatus.MESSAGE_ILLEGAL);
        }
        ByteBuffer body = draft.body();
        List<BatchBodyDescriptor.Entry> entries = new ArrayList<>();
        try {
            for (Iterator<BatchBodyDescriptor.Entry> it = BatchBodyDescriptor.entries(body); it.hasNext(); ) {
                entries.add(it.next());
            }
        } catch (MalformedBatchException e) {
            return Refusal.of(AppendStatus.MESSAGE_ILLEGAL);
        }
        if (entries.isEmpty()) {
            return Refusal.of(AppendStatus.MESSAGE_ILLEGAL);
        }
        PreparedAppend.UnpackedBatch prepared = new PreparedAppend.UnpackedBatch(draft, topicBytes, sysFlag,
                bornHostBytes, waits, entries.toArray(new BatchBodyDescriptor.Entry[0]));
        // Small entries grow when they become records; the whole batch must still fit one empty segment.
        if ((long) prepared.bytes(0) + RecordDescriptor.END_OF_SEGMENT_MIN_BLANK_BYTES > segmentBytes) {
            return Refusal.of(AppendStatus.MESSAGE_ILLEGAL);
        }
        return prepared;
    }

    private static boolean isDelayed(String text) {
        String delay = MessageProperties.find(text, MessageProperties.DELAY);
        if (delay == null) {
            return false;
        }
        try {
            return Integer.parseInt(delay.trim()) > 0;
        } catch (NumberFormatException e) {
            return true;
        }
    }

    private static boolean isResolved(InetSocketAddress host) {
        return host != null && host.getAddress() != null;
    }

    /**
     * Topic rule: {@code [%|a-zA-Z0-9_-]+}, at most 127 bytes, or at most 255 for {@code %RETRY%} and
     * {@code %DLQ%} topics (stored as v2 records).
     */
    static boolean isLegalTopic(String topic) {
        if (topic == null || topic.isEmpty() || topic.length() > RecordDescriptor.MAX_TOPIC_BYTES) {
            return false;
        }
        if (topic.length() > RecordDescriptor.MAX_V1_TOPIC_BYTES
                && !topic.startsWith(RETRY_PREFIX) && !topic.startsWith(DLQ_PREFIX)) {
            return false;
        }
        for (int i = 0; i < topic.length(); i++) {
            char c = topic.charAt(i);
            boolean ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
                    || c == '%' || c == '|' || c == '_' || c == '-';
            if (!ok) {
                return false;
            }
        }
        return true;
    }
}
