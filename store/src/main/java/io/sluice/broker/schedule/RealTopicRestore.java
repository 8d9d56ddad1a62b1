package io.sluice.broker.schedule;

import io.sluice.store.MessageStore;
import io.sluice.store.log.AppendKind;
import io.sluice.store.log.AppendResult;
import io.sluice.store.log.AppendStatus;
import io.sluice.store.log.MessageDraft;
import io.sluice.store.TopicNames;
import io.sluice.format.MessageProperties;
import io.sluice.store.TopicNames;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The re-store step shared by the services that park a message in a system topic and later store it in the topic
 * and queue its {@code REAL_TOPIC} / {@code REAL_QID} properties name (delay levels, timer messages).
 *
 * <p>The copy keeps the parked message's body, flags, born time and host, reconsume count, prepared-transaction
 * offset and properties (so UNIQ_KEY, KEYS and TAGS), minus the names the owner lists (those that would park it
 * again, and what the owner's Apache counterpart clears). The append is awaited: the caller advances its progress
 * only past a stored copy, so a crash in between re-stores it at most once more (at-least-once).
 *
 * <p>A message that can never be stored (no valid real topic and queue, refused as MESSAGE_ILLEGAL or
 * PROPERTIES_SIZE_EXCEEDED) is {@link Outcome#SKIPPED} and counted; any other refusal is {@link Outcome#RETRY}.
 *
 * <p>Thread-safe; the counters are the only state.
 */
public final class RealTopicRestore {

    private static final Logger LOG = LoggerFactory.getLogger(RealTopicRestore.class);

    /** What became of one parked message. */
    public enum Outcome {
        /** Stored in its real topic. */
        DELIVERED,
        /** Can never be stored; counted and logged, the caller moves past it. */
        SKIPPED,
        /** Refused for a reason that may pass; the caller tries again later. */
        RETRY
    }

    private final MessageStore store;
    private final String what;
    private final List<String> droppedProperties;
    private final AtomicLong delivered = new AtomicLong();
    private final AtomicLong skipped = new AtomicLong();
    private final AtomicLong appendFailures = new AtomicLong();

    /**
     * @param store             where the copies go
     * @param what              names the parked messages in log lines, e.g. "delayed message"
     * @param droppedProperties properties removed from the copy
     */
    public RealTopicRestore(MessageStore store, String what, List<String> droppedProperties) {
        this.store = store;
        this.what = what;
        this.droppedProperties = List.copyOf(droppedProperties);
    }

    /** Stores the copy of {@code message} in its real topic and queue, waiting for the append. */
    public Outcome restore(StoredMessage message) {
        return restoreAsync(message).join();
    }

    /**
     * Appends the copy of {@code message} to its real topic and queue without waiting: the outcome completes when
     * the flush policy confirms the append. Copies appended one after the other from one thread are stored in that
     * order, and a synchronous flush confirms them together. The future never completes exceptionally.
     */
    public CompletableFuture<Outcome> restoreAsync(StoredMessage message) {
        Optional<MessageDraft> draft = realDraft(message);
        if (draft.isEmpty()) {
            skipped.incrementAndGet();
            return CompletableFuture.completedFuture(Outcome.SKIPPED);
        }
        String topic = draft.get().topic();
        return store.append(draft.get()).handle((result, failure) -> failure != null
                ? failed(message, topic, failure) : outcomeOf(message, topic, result));
    }

    private Outcome failed(StoredMessage message, String topic, Throwable failure) {
        appendFailures.incrementAndGet();
        Throwable cause = failure instanceof CompletionException && failure.getCause() != null ? failure.getCause()
                : failure;
        LOG.error("storing the {} at position {} in {} failed", what, message.position(), topic, cause);
        return Outcome.RETRY;
    }

    private Outcome outcomeOf(StoredMessage message, String topic, AppendResult result) {
        AppendStatus status = result.status();
        if (status.isStored()) {
            delivered.incrementAndGet();
            return Outcome.DELIVERED;
        }
        if (status == AppendStatus.MESSAGE_ILLEGAL || status == AppendStatus.PROPERTIES_SIZE_EXCEEDED) {
            skipped.incrementAndGet();
            LOG.error("the {} at position {} for {} was refused ({}), skipped", what, message.position(), topic,
                    status);
            return Outcome.SKIPPED;
        }
        appendFailures.incrementAndGet();
        LOG.warn("storing the {} at position {} in {} was refused ({}); retrying later", what, message.position(),
                topic, status);
        return Outcome.RETRY;
    }

    /** Counts a parked record that cannot be decoded (the caller moves past it). */
    public void countUndecodable(String reason) {
        skipped.incrementAndGet();
        LOG.error("a parked {} cannot be decoded, skipped: {}", what, reason);
    }

    /** The copy for the real topic and queue, or empty (logged) when the message does not name them. */
    private Optional<MessageDraft> realDraft(StoredMessage message) {
        Map<String, String> properties = MessageProperties.parse(message.propertiesText());
        String realTopic = properties.get(MessageProperties.REAL_TOPIC);
        String realQid = properties.get(MessageProperties.REAL_QID);
        int queueId;
        try {
            queueId = realQid == null ? -1 : Integer.parseInt(realQid);
        } catch (NumberFormatException e) {
            queueId = -1;
        }
        if (realTopic == null || !TopicNames.isValid(realTopic) || queueId < 0) {
            LOG.error("the {} at position {} names no valid REAL_TOPIC/REAL_QID ({}/{}), skipped", what,
                    message.position(), realTopic, realQid);
            return Optional.empty();
        }
        droppedProperties.forEach(properties::remove);
        return Optional.of(new MessageDraft(realTopic, queueId, message.flag(), message.sysFlag(),
                message.bornTimestampMs(), message.bornHost(), message.reconsumeTimes(),
                message.preparedTransactionOffset(), message.body(), MessageProperties.encode(properties),
                AppendKind.SINGLE));
    }

    /** Copies stored in their real topic so far. */
    public long deliveredCount() {
        return delivered.get();
    }

    /** Parked messages skipped because they can never be stored. */
    public long skippedCount() {
        return skipped.get();
    }

    /** Appends refused for a reason that may pass (retried later). */
    public long appendFailureCount() {
        return appendFailures.get();
    }
}
