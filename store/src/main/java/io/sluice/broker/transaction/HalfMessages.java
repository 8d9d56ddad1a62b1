package io.sluice.broker.transaction;

import io.sluice.broker.schedule.StoredMessage;
import io.sluice.store.log.AppendKind;
import io.sluice.store.log.MessageDraft;
import io.sluice.format.MessageProperties;
import io.sluice.format.RecordDescriptor;
import java.util.Map;
import java.util.Optional;

/**
 * The drafts of the transaction paths: a prepared send becomes a half message in {@value #HALF_TOPIC}; a committed
 * half message becomes its real message; a half message given up goes to {@value #CHECK_MAX_TOPIC}.
 *
 * <p>Half messages are stored with transaction type NOT, so that the half topic indexes them (the store indexes
 * neither PREPARED nor ROLLBACK records); {@code TRAN_MSG=true} and {@code PGROUP} stay in their properties and
 * {@code REAL_TOPIC} / {@code REAL_QID} record where a commit delivers them, as Apache stores them.
 *
 * <p>Stateless; thread-safe.
 */
public final class HalfMessages {

    /** Where half messages wait for their outcome (one queue). */
    public static final String HALF_TOPIC = "RMQ_SYS_TRANS_HALF_TOPIC";
    /** Where half messages go when still unresolved after {@code transactionCheckMax} checks (one queue). */
    public static final String CHECK_MAX_TOPIC = "TRANS_CHECK_MAX_TIME_TOPIC";
    /** A producer's minimum age, in seconds, before its half message may be checked (Apache's property). */
    static final String CHECK_IMMUNITY_TIME_IN_SECONDS = "CHECK_IMMUNITY_TIME_IN_SECONDS";

    private HalfMessages() {
    }

    /** True for a single prepared send: transaction type PREPARED, or property {@code TRAN_MSG=true}. */
    public static boolean isPrepared(MessageDraft draft) {
        if (draft.kind() != AppendKind.SINGLE || HALF_TOPIC.equals(draft.topic())) {
            return false;
        }
        return RecordDescriptor.transactionType(draft.sysFlag()) == RecordDescriptor.TRANSACTION_PREPARED_TYPE
                || "true".equalsIgnoreCase(MessageProperties.find(draft.propertiesText(), MessageProperties.TRAN_MSG));
    }

    /** The half message of a prepared send: same message, in the half topic, with its real topic and queue. */
    static MessageDraft toHalf(MessageDraft draft) {
        Map<String, String> properties = MessageProperties.parse(draft.propertiesText());
        properties.put(MessageProperties.TRAN_MSG, "true");
        properties.put(MessageProperties.REAL_TOPIC, draft.topic());
        properties.put(MessageProperties.REAL_QID, Integer.toString(draft.queueId()));
        int sysFlag = withTransactionType(draft.sysFlag(), RecordDescriptor.TRANSACTION_NOT_TYPE);
        return new MessageDraft(HALF_TOPIC, 0, draft.flag(), sysFlag, draft.bornTimestampMs(), draft.bornHost(),
                draft.reconsumeTimes(), 0, draft.body(), MessageProperties.encode(properties), AppendKind.SINGLE);
    }

    /** Where a half message is delivered when committed. */
    record RealQueue(String topic, int queueId) {
    }

    /** The real topic and queue a half message records; empty when its properties do not name them. */
    static Optional<RealQueue> realQueue(StoredMessage half) {
        String topic = half.property(MessageProperties.REAL_TOPIC);
        String qid = half.property(MessageProperties.REAL_QID);
        if (topic == null || topic.isEmpty() || qid == null) {
            return Optional.empty();
        }
        try {
            int queueId = Integer.parseInt(qid);
            return queueId < 0 ? Optional.empty() : Optional.of(new RealQueue(topic, queueId));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    /**
     * The committed message of a half message: its real topic and queue, transaction type COMMIT, the half
     * message's position as prepared-transaction offset, without {@code TRAN_MSG}, {@code REAL_TOPIC} and
     * {@code REAL_QID}.
     */
    static MessageDraft committed(StoredMessage half, RealQueue real) {
        Map<String, String> properties = MessageProperties.parse(half.propertiesText());
        properties.remove(MessageProperties.TRAN_MSG);
        properties.remove(MessageProperties.REAL_TOPIC);
        properties.remove(MessageProperties.REAL_QID);
        int sysFlag = withTransactionType(half.sysFlag(), RecordDescriptor.TRANSACTION_COMMIT_TYPE);
        return new MessageDraft(real.topic(), real.queueId(), half.flag(), sysFlag, half.bornTimestampMs(),
                half.bornHost(), half.reconsumeTimes(), half.position(), half.body(),
                MessageProperties.encode(properties), AppendKind.SINGLE);
    }

    /** True when {@code stored} is the committed copy of the half message at {@code halfPosition}. */
    static boolean isCommittedCopyOf(StoredMessage stored, long halfPosition) {
        return stored.preparedTransactionOffset() == halfPosition
                && RecordDescriptor.transactionType(stored.sysFlag()) == RecordDescriptor.TRANSACTION_COMMIT_TYPE;
    }

    /** The copy of a half message kept in {@value #CHECK_MAX_TOPIC} once it is given up. */
    static MessageDraft givenUp(StoredMessage half) {
        return new MessageDraft(CHECK_MAX_TOPIC, 0, half.flag(), half.sysFlag(), half.bornTimestampMs(),
                half.bornHost(), half.reconsumeTimes(), half.position(), half.body(), half.propertiesText(),
                AppendKind.SINGLE);
    }

    /** How long after it was stored the half message may be checked: the time-out or its immunity, if longer. */
    static long checkAfterMs(StoredMessage half, long timeoutMs) {
        String immunity = half.property(CHECK_IMMUNITY_TIME_IN_SECONDS);
        if (immunity == null) {
            return timeoutMs;
        }
        try {
            long seconds = Long.parseLong(immunity.trim());
            return seconds > 0 && seconds < Long.MAX_VALUE / 1000 ? Math.max(timeoutMs, seconds * 1000) : timeoutMs;
        } catch (NumberFormatException e) {
            return timeoutMs;
        }
    }

    private static int withTransactionType(int sysFlag, int type) {
        return (sysFlag & ~RecordDescriptor.TRANSACTION_TYPE_MASK) | type;
    }
}
