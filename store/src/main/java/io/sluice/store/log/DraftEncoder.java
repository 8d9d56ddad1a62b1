package io.sluice.store.log;

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
 * <p>Immutable; thread-safe.
 */
final class DraftEncoder {

    private static final String RETRY_PREFIX = "%RETRY%";
    private static final String DLQ_PREFIX = "%DLQ%";
    private static final int HOST_FLAGS = RecordDescriptor.BORNHOST_V6_FLAG | RecordDescriptor.STOREHOST_V6_FLAG;
    private static final int BATCH_FLAGS = RecordDescriptor.NEED_UNWRAP_FLAG | RecordDescriptor.INNER_BATCH_FLAG;

    private final int maxMessageBytes;
    private final int segmentBytes;
    private final int storeHostFlag;

    DraftEncoder(int maxMessageBytes, int segmentBytes, boolean storeHostIsV6) {
        this.maxMessageBytes = maxMessageBytes;
        this.segmentBytes = segmentBytes;
        this.storeHostFlag = storeHostIsV6 ? RecordDescriptor.STOREHOST_V6_FLAG : 0;
    }

    /** The outcome of {@link #prepare}: either a prepared append or the status refusing the draft. */
    record Outcome(AppendStatus status, PreparedAppend prepared) {
        static Outcome refused(AppendStatus status) {
            return new Outcome(status, null);
        }

        boolean isReady() {
            return status == AppendStatus.PUT_OK;
        }
    }

    Outcome prepare(MessageDraft draft) {
        if (draft == null || draft.kind() == null || draft.body() == null || !isLegalTopic(draft.topic())
                || draft.queueId() < 0 || draft.queueId() > QueueOffsetTable.MAX_QUEUE_ID
                || !isResolved(draft.bornHost()) || draft.body().remaining() > maxMessageBytes
                || (draft.kind() != AppendKind.INNER_BATCH && (draft.sysFlag() & BATCH_FLAGS) != 0)) {
            return Outcome.refused(AppendStatus.MESSAGE_ILLEGAL);
        }
        byte[] topicBytes = draft.topic().getBytes(StandardCharsets.US_ASCII);
        byte[] bornHostBytes = MessageIds.hostBytes(draft.bornHost());
        int sysFlag = (draft.sysFlag() & ~HOST_FLAGS) | storeHostFlag
                | (bornHostBytes.length == RecordDescriptor.IPV6_HOST_BYTES ? RecordDescriptor.BORNHOST_V6_FLAG : 0);
        String text = draft.propertiesText();
        boolean waits = !"false".equals(MessageProperties.find(text, MessageProperties.WAIT));
        return switch (draft.kind()) {
            case SINGLE -> single(draft, topicBytes, sysFlag, bornHostBytes, waits);
            case INNER_BATCH -> innerBatch(draft, topicBytes, sysFlag | BATCH_FLAGS, bornHostBytes, waits);
            case UNPACKED_BATCH -> unpackedBatch(draft, topicBytes, sysFlag, bornHostBytes, waits);
        };
    }

    private Outcome single(MessageDraft draft, byte[] topicBytes, int sysFlag, byte[] bornHostBytes,
                           boolean waits) {
        String text = draft.propertiesText();
        if (MessageProperties.find(text, MessageProperties.INNER_NUM) != null) {
            return Outcome.refused(AppendStatus.MESSAGE_ILLEGAL);
        }
        byte[] properties = text.getBytes(StandardCharsets.UTF_8);
        if (properties.length > RecordDescriptor.MAX_PROPERTIES_BYTES) {
            return Outcome.refused(AppendStatus.PROPERTIES_SIZE_EXCEEDED);
        }
        int tx = RecordDescriptor.transactionType(sysFlag);
        boolean assigns = tx != RecordDescriptor.TRANSACTION_PREPARED_TYPE
                && tx != RecordDescriptor.TRANSACTION_ROLLBACK_TYPE;
        return new Outcome(AppendStatus.PUT_OK,
                new PreparedAppend.Single(draft, topicBytes, sysFlag, bornHostBytes, assigns, waits, properties));
    }

    private Outcome innerBatch(MessageDraft draft, byte[] topicBytes, int sysFlag, byte[] bornHostBytes,
                               boolean waits) {
        if (RecordDescriptor.transactionType(sysFlag) != RecordDescriptor.TRANSACTION_NOT_TYPE) {
            return Outcome.refused(AppendStatus.MESSAGE_ILLEGAL);
        }
        int innerNum;
        try {
            innerNum = BatchBodyDescriptor.count(draft.body());
        } catch (MalformedBatchException e) {
            return Outcome.refused(AppendStatus.MESSAGE_ILLEGAL);
        }
        byte[] prefix = PreparedAppend.InnerBatch.propertiesPrefix(draft.propertiesText(), innerNum);
        if (prefix.length + PreparedAppend.InnerBatch.MAX_SUFFIX_BYTES > RecordDescriptor.MAX_PROPERTIES_BYTES) {
            return Outcome.refused(AppendStatus.PROPERTIES_SIZE_EXCEEDED);
        }
        return new Outcome(AppendStatus.PUT_OK,
                new PreparedAppend.InnerBatch(draft, topicBytes, sysFlag, bornHostBytes, waits, innerNum, prefix));
    }

    private Outcome unpackedBatch(MessageDraft draft, byte[] topicBytes, int sysFlag, byte[] bornHostBytes,
                                  boolean waits) {
        if (RecordDescriptor.transactionType(sysFlag) != RecordDescriptor.TRANSACTION_NOT_TYPE
                || isDelayed(draft.propertiesText())) {
            return Outcome.refused(AppendStatus.MESSAGE_ILLEGAL);
        }
        ByteBuffer body = draft.body();
        List<BatchBodyDescriptor.Entry> entries = new ArrayList<>();
        try {
            for (Iterator<BatchBodyDescriptor.Entry> it = BatchBodyDescriptor.entries(body); it.hasNext(); ) {
                entries.add(it.next());
            }
        } catch (MalformedBatchException e) {
            return Outcome.refused(AppendStatus.MESSAGE_ILLEGAL);
        }
        if (entries.isEmpty()) {
            return Outcome.refused(AppendStatus.MESSAGE_ILLEGAL);
        }
        PreparedAppend.UnpackedBatch prepared = new PreparedAppend.UnpackedBatch(draft, topicBytes, sysFlag,
                bornHostBytes, waits, entries.toArray(new BatchBodyDescriptor.Entry[0]));
        // Small entries grow when they become records; the whole batch must still fit one empty segment.
        if ((long) prepared.bytes(0) + RecordDescriptor.END_OF_SEGMENT_MIN_BLANK_BYTES > segmentBytes) {
            return Outcome.refused(AppendStatus.MESSAGE_ILLEGAL);
        }
        return new Outcome(AppendStatus.PUT_OK, prepared);
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
