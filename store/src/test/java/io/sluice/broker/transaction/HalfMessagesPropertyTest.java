package io.sluice.broker.transaction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.broker.schedule.StoredMessage;
import io.sluice.format.MessageProperties;
import io.sluice.format.RecordDescriptor;
import io.sluice.store.log.AppendKind;
import io.sluice.store.log.MessageDraft;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.LongRange;

/**
 * The transaction drafts: a prepared send parked as a half message and then committed comes back as the same
 * message in its own topic and queue (transaction type COMMIT, the half message's position as its prepared offset,
 * without the bookkeeping properties), whatever its properties and flags; a half message that names no real queue
 * is not delivered; and a producer's check immunity only ever lengthens the wait.
 */
class HalfMessagesPropertyTest {

    private static final InetSocketAddress BORN = new InetSocketAddress("10.0.0.7", 50_000);
    private static final InetSocketAddress STORE = new InetSocketAddress("10.0.0.1", 10_911);

    @Property(tries = 300)
    void aCommittedHalfMessageIsTheSendAgainInItsOwnQueue(@ForAll("prepared") MessageDraft send,
                                                          @ForAll @LongRange(min = 0, max = 1L << 40) long position) {
        assertTrue(HalfMessages.isPrepared(send));
        MessageDraft half = HalfMessages.toHalf(send);
        assertEquals(HalfMessages.HALF_TOPIC, half.topic());
        assertEquals(0, half.queueId());
        assertEquals(RecordDescriptor.TRANSACTION_NOT_TYPE, RecordDescriptor.transactionType(half.sysFlag()),
                "the half topic indexes it");
        assertFalse(HalfMessages.isPrepared(half), "a half message is not prepared again");
        StoredMessage storedHalf = stored(half, position);
        assertEquals(Optional.of(new HalfMessages.RealQueue(send.topic(), send.queueId())),
                HalfMessages.realQueue(storedHalf));

        MessageDraft committed = HalfMessages.committed(storedHalf, HalfMessages.realQueue(storedHalf).orElseThrow());
        assertEquals(send.topic(), committed.topic());
        assertEquals(send.queueId(), committed.queueId());
        assertEquals(send.flag(), committed.flag());
        assertEquals(send.body(), committed.body());
        assertEquals(send.bornTimestampMs(), committed.bornTimestampMs());
        assertEquals(RecordDescriptor.TRANSACTION_COMMIT_TYPE, RecordDescriptor.transactionType(committed.sysFlag()));
        assertEquals(send.sysFlag() & ~RecordDescriptor.TRANSACTION_TYPE_MASK,
                committed.sysFlag() & ~RecordDescriptor.TRANSACTION_TYPE_MASK, "the other flag bits are kept");
        assertEquals(position, committed.preparedTransactionOffset());
        Map<String, String> expected = new HashMap<>(MessageProperties.parse(send.propertiesText()));
        expected.remove(MessageProperties.TRAN_MSG);
        assertEquals(expected, MessageProperties.parse(committed.propertiesText()));
        assertTrue(HalfMessages.isCommittedCopyOf(stored(committed, position + 1_000), position));
        assertFalse(HalfMessages.isCommittedCopyOf(stored(committed, position + 1_000), position + 1));
        assertFalse(HalfMessages.isCommittedCopyOf(storedHalf, position), "the half message is no copy");

        MessageDraft givenUp = HalfMessages.givenUp(storedHalf);
        assertEquals(HalfMessages.CHECK_MAX_TOPIC, givenUp.topic());
        assertEquals(storedHalf.propertiesText(), givenUp.propertiesText());
        assertEquals(position, givenUp.preparedTransactionOffset());
    }

    @Property(tries = 200)
    void theCheckWaitIsTheTimeoutOrALongerImmunity(@ForAll @LongRange(min = 1, max = 3_600_000) long timeoutMs,
                                                   @ForAll("immunities") String immunity) {
        MessageDraft half = HalfMessages.toHalf(draft("T", 1, MessageProperties.encode(Map.of(
                MessageProperties.TRAN_MSG, "true", HalfMessages.CHECK_IMMUNITY_TIME_IN_SECONDS, immunity)), 0));
        long waitMs = HalfMessages.checkAfterMs(stored(half, 0), timeoutMs);
        assertTrue(waitMs >= timeoutMs, immunity + " -> " + waitMs);
        long seconds;
        try {
            seconds = Long.parseLong(immunity.trim());
        } catch (NumberFormatException e) {
            assertEquals(timeoutMs, waitMs, "an unreadable immunity is ignored: " + immunity);
            return;
        }
        long expected = seconds > 0 && seconds < Long.MAX_VALUE / 1000 ? Math.max(timeoutMs, seconds * 1000)
                : timeoutMs;
        assertEquals(expected, waitMs, immunity);
    }

    @Example
    void aHalfMessageWithoutAUsableRealQueueIsNotDelivered() {
        for (Map<String, String> properties : List.of(Map.<String, String>of(),
                Map.of(MessageProperties.REAL_TOPIC, "T"), Map.of(MessageProperties.REAL_QID, "1"),
                Map.of(MessageProperties.REAL_TOPIC, "", MessageProperties.REAL_QID, "1"),
                Map.of(MessageProperties.REAL_TOPIC, "T", MessageProperties.REAL_QID, "-1"),
                Map.of(MessageProperties.REAL_TOPIC, "T", MessageProperties.REAL_QID, "one"))) {
            StoredMessage half = stored(draft(HalfMessages.HALF_TOPIC, 0, MessageProperties.encode(properties), 0), 0);
            assertEquals(Optional.empty(), HalfMessages.realQueue(half), properties.toString());
        }
    }

    @Example
    void onlyASingleSendMarkedAsATransactionIsPrepared() {
        String tranMsg = MessageProperties.encode(Map.of(MessageProperties.TRAN_MSG, "TRUE"));
        assertTrue(HalfMessages.isPrepared(draft("T", 0, tranMsg, 0)));
        assertTrue(HalfMessages.isPrepared(draft("T", 0, "", RecordDescriptor.TRANSACTION_PREPARED_TYPE)));
        assertFalse(HalfMessages.isPrepared(draft("T", 0, "", 0)));
        assertFalse(HalfMessages.isPrepared(draft("T", 0, "", RecordDescriptor.TRANSACTION_COMMIT_TYPE)));
        assertFalse(HalfMessages.isPrepared(draft("T", 0, tranMsg, 0).withKind(AppendKind.UNPACKED_BATCH)),
                "a batch is never a transaction");
    }

    private static MessageDraft draft(String topic, int queueId, String properties, int sysFlag) {
        return new MessageDraft(topic, queueId, 0, sysFlag, 1_700_000_000_000L, BORN, 0, 0,
                ByteBuffer.wrap(new byte[] {1, 2, 3}), properties, AppendKind.SINGLE);
    }

    private static StoredMessage stored(MessageDraft draft, long position) {
        return new StoredMessage(draft.topic(), draft.queueId(), draft.flag(), 0, position, draft.sysFlag(),
                draft.bornTimestampMs(), draft.bornHost(), draft.bornTimestampMs() + 1, STORE,
                draft.reconsumeTimes(), draft.preparedTransactionOffset(), draft.body(), draft.propertiesText());
    }

    @Provide
    Arbitrary<MessageDraft> prepared() {
        Arbitrary<String> topics = Arbitraries.strings().withChars("abcXYZ019_-%").ofMinLength(1).ofMaxLength(20);
        Arbitrary<Map<String, String>> properties = Arbitraries.maps(
                Arbitraries.of("KEYS", "TAGS", "UNIQ_KEY", "a", "b", MessageProperties.TRAN_MSG),
                Arbitraries.strings().withChars("xyz 0:é").ofMinLength(1).ofMaxLength(8)).ofMaxSize(4);
        Arbitrary<Integer> otherFlags = Arbitraries.integers().between(0, 255)
                .map(bits -> bits & ~RecordDescriptor.TRANSACTION_TYPE_MASK);
        return Combinators.combine(topics, Arbitraries.integers().between(0, 63), properties, otherFlags,
                Arbitraries.bytes().array(byte[].class).ofMaxSize(32)).as((topic, queueId, props, flags, body) -> {
                    Map<String, String> marked = new HashMap<>(props);
                    marked.put(MessageProperties.TRAN_MSG, "true");
                    return new MessageDraft(topic, queueId, queueId * 3, flags, 1_700_000_000_000L + queueId, BORN,
                            0, 0, ByteBuffer.wrap(body), MessageProperties.encode(marked), AppendKind.SINGLE);
                });
    }

    @Provide
    Arbitrary<String> immunities() {
        return Arbitraries.oneOf(Arbitraries.longs().between(-5, 100_000).map(String::valueOf),
                Arbitraries.of("", " 30 ", "ten", "9223372036854775807", "9223372036854775", "1e3", "-0"));
    }
}
