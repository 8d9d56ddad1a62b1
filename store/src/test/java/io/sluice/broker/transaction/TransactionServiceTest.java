package io.sluice.broker.transaction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.broker.schedule.StoredMessage;
import io.sluice.broker.testing.FakeConnection;
import io.sluice.broker.testing.OpenStores;
import io.sluice.broker.transaction.OpRecordDescriptor.Kind;
import io.sluice.broker.transaction.OpRecordDescriptor.Op;
import io.sluice.remoting.protocol.RemotingCommand;
import io.sluice.remoting.protocol.RequestCode;
import io.sluice.remoting.protocol.ResponseCode;
import io.sluice.store.log.AppendResult;
import io.sluice.store.log.MessageDraft;
import io.sluice.format.MessageProperties;
import io.sluice.format.RecordDescriptor;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.agrona.concurrent.CachedEpochClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The transaction state across restarts, driven on the test thread (the service is never started): a commit a
 * crash interrupted between its op record and its copy, malformed op records and stored offsets outside their
 * queues, check counts that survive a restart, and the check-max give-up.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class TransactionServiceTest {

    private static final String REAL = "RealTopic";
    private static final String GROUP = "pg";

    @TempDir
    Path dir;

    private final CachedEpochClock clock = new CachedEpochClock();
    private final FakeConnection producer = new FakeConnection(50_000);

    private TransactionService service(OpenStores stores, int checkMax) {
        TransactionService service = new TransactionService(stores.store(), stores.metadata(),
                group -> GROUP.equals(group) ? Optional.of(producer) : Optional.empty(),
                topic -> stores.metadata().getTopic(topic).isPresent(),
                new TransactionSettings(1_000, 1_000, checkMax, "broker-a"), clock, OpenStores.STORE_HOST);
        service.recover();
        return service;
    }

    /** Stores a prepared send as a half message, as the send path does; returns its append result. */
    private static AppendResult prepare(OpenStores stores, TransactionService service, String body) {
        MessageDraft prepared = OpenStores.draft(REAL, 1, body, MessageProperties.encode(Map.of(
                MessageProperties.PGROUP, GROUP, MessageProperties.UNIQ_KEY, "UK-" + body,
                MessageProperties.TRAN_MSG, "true")));
        return stores.append(service.toHalf(prepared));
    }

    private static EndTransactionRequest end(AppendResult half, int outcome) {
        return new EndTransactionRequest(GROUP, half.queueOffset(), half.position(), outcome, false, "", "");
    }

    @Test
    void aCommitInterruptedBetweenItsOpRecordAndItsCopyIsCompletedOnceOnTheNextStart() throws Exception {
        clock.update(System.currentTimeMillis());
        try (OpenStores stores = OpenStores.open(dir)) {
            stores.createTopic(REAL, 2);
            TransactionService first = service(stores, 15);
            AppendResult half = prepare(stores, first, "interrupted");
            AppendResult other = prepare(stores, first, "completed");
            assertEquals(EndOutcome.COMMITTED, first.end(end(other, EndTransactionRequest.COMMIT)));
            // The crash: the commit op record of the first is stored, its copy is not.
            stores.append(OpRecordDescriptor.draft(new Op(Kind.COMMIT, half.queueOffset(), 0, 0), clock.time(),
                    OpenStores.STORE_HOST));
            stores.awaitDispatched();
            assertEquals(1, stores.store().maxOffset(REAL, 1));

            TransactionService second = service(stores, 15);
            stores.awaitDispatched();
            assertEquals(1, second.repairedCommitCount(), "the interrupted commit is completed");
            assertEquals(2, stores.store().maxOffset(REAL, 1), "and only that one");
            StoredMessage copy = StoredMessage.decode(stores.records(REAL, 1).get(1));
            assertEquals("interrupted", OpenStores.bodyText(copy.body()));
            assertEquals(RecordDescriptor.TRANSACTION_COMMIT_TYPE, RecordDescriptor.transactionType(copy.sysFlag()));
            assertEquals(half.position(), copy.preparedTransactionOffset());
            assertEquals(null, copy.property(MessageProperties.TRAN_MSG));
            assertEquals(null, copy.property(MessageProperties.REAL_TOPIC));

            // As if the confirmation had not been persisted: both commits are verified again and both have a copy.
            stores.metadata().putLong(TransactionService.CONFIRMED_OP_OFFSET_KEY, 0);
            TransactionService third = service(stores, 15);
            assertEquals(0, third.repairedCommitCount(), "a completed commit is never stored again");
            assertEquals(EndOutcome.ALREADY_RESOLVED, third.end(end(half, EndTransactionRequest.COMMIT)));
            assertEquals(EndOutcome.ALREADY_RESOLVED, third.end(end(other, EndTransactionRequest.ROLLBACK)));
            clock.update(clock.time() + 60_000);
            assertEquals(0, third.checkPass(), "nothing is left to check");
            stores.awaitDispatched();
            assertEquals(2, stores.store().maxOffset(REAL, 1));
        }
    }

    @Test
    void malformedOpRecordsAndOffsetsOutsideTheirQueuesAreSkippedAndThePendingHalfIsCheckedBack()
            throws Exception {
        clock.update(System.currentTimeMillis());
        AppendResult pending;
        AppendResult rolledBack;
        try (OpenStores stores = OpenStores.open(dir)) {
            stores.createTopic(REAL, 2);
            TransactionService first = service(stores, 15);
            rolledBack = prepare(stores, first, "rolled-back");
            pending = prepare(stores, first, "pending");
            assertEquals(EndOutcome.ROLLED_BACK, first.end(end(rolledBack, EndTransactionRequest.ROLLBACK)));
            stores.append(op("12x", Map.of(OpRecordDescriptor.KIND, "C", OpRecordDescriptor.REAL_FROM, "0")));
            stores.append(op(Long.toString(pending.queueOffset()), Map.of(OpRecordDescriptor.KIND, "Z")));
            stores.append(op(Long.toString(pending.queueOffset()), Map.of(OpRecordDescriptor.KIND, "K")));
            stores.append(op(Long.toString(pending.queueOffset()), Map.of(OpRecordDescriptor.KIND, "C",
                    OpRecordDescriptor.REAL_FROM, "-4")));
            first.persistOffsets();
        }
        try (OpenStores stores = OpenStores.open(dir)) {
            // Offsets outside their queues: one that was never valid, one from a metadata store that outlived its
            // CommitLog's tail.
            stores.metadata().putLong(TransactionService.HALF_OFFSET_KEY, -3);
            stores.metadata().putLong(TransactionService.CONFIRMED_OP_OFFSET_KEY, 1_000);
            TransactionService second = service(stores, 15);
            assertEquals(4, second.malformedRecordCount(), "each malformed op record is skipped and counted");
            assertEquals(0, second.repairedCommitCount());

            clock.update(clock.time() + 5_000);
            assertEquals(1, second.checkPass(), "only the pending half message is checked back");
            RemotingCommand check = producer.onewaySent().get(0);
            assertEquals(RequestCode.CHECK_TRANSACTION_STATE, check.code());
            assertTrue(check.isOneway());
            assertEquals(Long.toString(pending.queueOffset()), check.extField("tranStateTableOffset"));
            assertEquals(Long.toString(pending.position()), check.extField("commitLogOffset"));
            assertEquals("UK-pending", check.extField("transactionId"));
            assertEquals(REAL, check.extField("topic"));
            StoredMessage body = StoredMessage.decode(ByteBuffer.wrap(check.body()));
            assertEquals(REAL, body.topic(), "the body carries the real topic, as Apache sends it");
            assertEquals(1, body.queueId());
            assertEquals(pending.position(), body.position());
            assertEquals(pending.queueOffset(), body.queueOffset());
            assertEquals("pending", OpenStores.bodyText(body.body()));

            assertEquals(EndOutcome.COMMITTED, second.end(end(pending, EndTransactionRequest.COMMIT)));
            assertEquals(EndOutcome.ALREADY_RESOLVED, second.end(end(rolledBack, EndTransactionRequest.COMMIT)));
            stores.awaitDispatched();
            assertEquals(1, stores.store().maxOffset(REAL, 1), "the rolled back one is never stored");
        }
    }

    @Test
    void checkCountsSurviveARestartAndTheMaximumGivesTheHalfMessageUp() throws Exception {
        clock.update(System.currentTimeMillis() + 5_000);
        AppendResult half;
        try (OpenStores stores = OpenStores.open(dir)) {
            stores.createTopic(REAL, 2);
            TransactionService first = service(stores, 2);
            half = prepare(stores, first, "forgotten");
            assertEquals(1, first.checkPass());
        }
        try (OpenStores stores = OpenStores.open(dir)) {
            TransactionService second = service(stores, 2);
            assertEquals(1, second.checkPass(), "the second and last check");
            assertEquals(0, second.checkPass(), "given up instead of a third");
            assertEquals(1, second.givenUpCount());
            stores.awaitDispatched();
            StoredMessage kept = StoredMessage.decode(stores.records(HalfMessages.CHECK_MAX_TOPIC, 0).get(0));
            assertEquals("forgotten", OpenStores.bodyText(kept.body()));
            assertEquals(EndOutcome.ALREADY_RESOLVED, second.end(end(half, EndTransactionRequest.COMMIT)),
                    "a late commit of a given-up half message changes nothing");
            assertEquals(0, stores.store().maxOffset(REAL, 1));
        }
        assertEquals(2, producer.onewaySent().size());
    }

    @Test
    void eachEndOutcomeIsAppliedOnceAndCounted() throws Exception {
        try (OpenStores stores = OpenStores.open(dir)) {
            TransactionService service = service(stores, 15);
            stores.createTopic(REAL, 2);
            clock.update(System.currentTimeMillis());
            AppendResult committed = prepare(stores, service, "to commit");
            AppendResult rolledBack = prepare(stores, service, "to roll back");
            AppendResult undecided = prepare(stores, service, "undecided");

            assertEquals(EndOutcome.LEFT_PENDING, service.end(end(undecided, EndTransactionRequest.UNKNOWN)));
            assertEquals(1, service.unknownStateEndCount());
            assertEquals(EndOutcome.COMMITTED, service.end(end(committed, EndTransactionRequest.COMMIT)));
            assertEquals(EndOutcome.ROLLED_BACK, service.end(end(rolledBack, EndTransactionRequest.ROLLBACK)));
            assertEquals(EndOutcome.ALREADY_RESOLVED, service.end(end(committed, EndTransactionRequest.ROLLBACK)));
            assertEquals(EndOutcome.ALREADY_RESOLVED, service.end(end(rolledBack, EndTransactionRequest.COMMIT)));
            assertEquals(1, service.committedCount());
            assertEquals(1, service.rolledBackCount());
            assertEquals(2, service.duplicateEndCount());

            stores.awaitDispatched();
            assertEquals(1, stores.store().maxOffset(REAL, 1), "only the committed message reaches its topic");
            assertEquals("to commit", OpenStores.bodyText(StoredMessage.decode(stores.records(REAL, 1).get(0))
                    .body()));
            clock.update(clock.time() + 60_000);
            assertEquals(1, service.checkPass(), "only the undecided one is checked back");
        }
    }

    @Test
    void anEndNamingNoHalfMessageOrAnotherGroupsChangesNothing() throws Exception {
        try (OpenStores stores = OpenStores.open(dir)) {
            TransactionService service = service(stores, 15);
            stores.createTopic(REAL, 2);
            AppendResult half = prepare(stores, service, "kept");
            AppendResult plain = stores.append(OpenStores.draft(REAL, 0, "not a half message", ""));

            assertEquals(EndOutcome.NO_SUCH_HALF, service.end(new EndTransactionRequest(GROUP, half.queueOffset(),
                    half.position() + 1, EndTransactionRequest.COMMIT, false, "", "")), "no record starts there");
            assertEquals(EndOutcome.NO_SUCH_HALF, service.end(new EndTransactionRequest(GROUP,
                    half.queueOffset() + 1, half.position(), EndTransactionRequest.COMMIT, false, "", "")),
                    "the half message has another queue offset");
            assertEquals(EndOutcome.NO_SUCH_HALF, service.end(end(plain, EndTransactionRequest.COMMIT)),
                    "a record of another topic");
            assertEquals(EndOutcome.WRONG_GROUP, service.end(new EndTransactionRequest("another-group",
                    half.queueOffset(), half.position(), EndTransactionRequest.COMMIT, false, "", "")));
            assertEquals(4, service.unknownEndCount());

            stores.metadata().deleteTopic(REAL);
            assertEquals(EndOutcome.NO_REAL_TOPIC, service.end(end(half, EndTransactionRequest.COMMIT)),
                    "a commit to a deleted topic is not applied");
            assertEquals(0, service.committedCount());
            assertEquals(EndOutcome.ROLLED_BACK, service.end(end(half, EndTransactionRequest.ROLLBACK)),
                    "it stays pending, so a rollback still resolves it");
        }
    }

    @Test
    void aMalformedEndIsRefusedBeforeItIsQueued() throws Exception {
        try (OpenStores stores = OpenStores.open(dir)) {
            TransactionService service = service(stores, 15);
            RemotingCommand request = RemotingCommand.request(RequestCode.END_TRANSACTION)
                    .putExtField("producerGroup", GROUP).putExtField("tranStateTableOffset", 0)
                    .putExtField("commitLogOffset", 0).putExtField("commitOrRollback", 5);
            RemotingCommand answer = service.onEndTransaction(producer, request).get(10, TimeUnit.SECONDS);
            assertEquals(ResponseCode.INVALID_PARAMETER, answer.code());
            assertEquals("header field 'commitOrRollback' is 5, expected 8 (commit), 12 (rollback) or 0 (unknown)",
                    answer.remark());
            RemotingCommand noGroup = RemotingCommand.request(RequestCode.END_TRANSACTION)
                    .putExtField("tranStateTableOffset", 0).putExtField("commitLogOffset", 0)
                    .putExtField("commitOrRollback", 8);
            assertEquals(ResponseCode.INVALID_PARAMETER,
                    service.onEndTransaction(producer, noGroup).get(10, TimeUnit.SECONDS).code());
            assertEquals(2, service.rejectedEndCount());
            service.close();
        }
    }

    private static MessageDraft op(String body, Map<String, String> properties) {
        return MessageDraft.builder(OpRecordDescriptor.OP_TOPIC, 0).body(body.getBytes(StandardCharsets.US_ASCII))
                .propertiesText(MessageProperties.encode(properties)).bornHost(OpenStores.BORN_HOST)
                .bornTimestampMs(1L).build();
    }
}
