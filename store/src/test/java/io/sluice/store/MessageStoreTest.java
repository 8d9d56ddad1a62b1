package io.sluice.store;

import static io.sluice.store.StoreFixture.BATCH_TOPIC;
import static io.sluice.store.StoreFixture.SIMPLE_TOPIC;
import static io.sluice.store.StoreFixture.appendOk;
import static io.sluice.store.StoreFixture.awaitDispatched;
import static io.sluice.store.StoreFixture.awaitMaxOffset;
import static io.sluice.store.StoreFixture.batch;
import static io.sluice.store.StoreFixture.bytes;
import static io.sluice.store.StoreFixture.draft;
import static io.sluice.store.StoreFixture.tagged;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.store.log.AppendKind;
import io.sluice.store.log.AppendResult;
import io.sluice.store.log.AppendStatus;
import io.sluice.testing.Await;
import io.sluice.store.log.MessageDraft;
import io.sluice.format.RecordDescriptor;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.agrona.concurrent.CachedEpochClock;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageDecoder;
import org.apache.rocketmq.common.message.MessageExt;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MessageStoreTest {

    private static final int ALL_BYTES = 1 << 20;

    @TempDir
    Path root;

    private MessageStore store;

    @BeforeEach
    void open() throws IOException {
        store = StoreFixture.open(root);
    }

    @AfterEach
    void close() {
        if (store != null) {
            store.close();
        }
    }

    private static MessageExt decode(ByteBuffer record) {
        return MessageDecoder.decode(record.duplicate(), true, false);
    }

    @Test
    void shouldReadBackSingleMessagesByteExact() {
        AppendResult[] results = new AppendResult[3];
        for (int i = 0; i < 3; i++) {
            results[i] = appendOk(store, tagged(SIMPLE_TOPIC, 2, "body-" + i, "TagA"));
            assertEquals(i, results[i].queueOffset());
        }
        awaitMaxOffset(store, SIMPLE_TOPIC, 2, 3);

        GetResult get = store.getMessages(SIMPLE_TOPIC, 2, 0, 32, ALL_BYTES, null);

        assertEquals(GetStatus.FOUND, get.status());
        assertEquals(3, get.nextOffset());
        assertEquals(0, get.minOffset());
        assertEquals(3, get.maxOffset());
        assertEquals(3, get.messageCount());
        assertEquals(3, get.records().size());
        int total = 0;
        for (int i = 0; i < 3; i++) {
            ByteBuffer record = get.records().get(i);
            assertTrue(record.isReadOnly(), "a view, not a writable buffer");
            assertEquals(results[i].wroteBytes(), record.remaining());
            assertArrayEquals(bytes(store.recordAt(results[i].position()).orElseThrow()), bytes(record));
            MessageExt m = decode(record);
            assertEquals(SIMPLE_TOPIC, m.getTopic());
            assertEquals(2, m.getQueueId());
            assertEquals(i, m.getQueueOffset());
            assertEquals(results[i].position(), m.getCommitLogOffset());
            assertEquals("TagA", m.getTags());
            assertEquals("body-" + i, new String(m.getBody(), StandardCharsets.UTF_8));
            total += record.remaining();
        }
        assertEquals(total, get.totalBytes());
    }

    @Test
    void shouldIndexEveryEntryOfAnUnpackedBatch() {
        AppendResult r = appendOk(store, batch(SIMPLE_TOPIC, 0, AppendKind.UNPACKED_BATCH, "a", "bb", "ccc"));
        assertEquals(3, r.messageCount());
        assertEquals(3, r.recordCount());
        awaitMaxOffset(store, SIMPLE_TOPIC, 0, 3);

        GetResult get = store.getMessages(SIMPLE_TOPIC, 0, 1, 32, ALL_BYTES, null);

        assertEquals(GetStatus.FOUND, get.status());
        assertEquals(2, get.records().size());
        assertEquals("bb", new String(decode(get.records().get(0)).getBody(), StandardCharsets.UTF_8));
        assertEquals("ccc", new String(decode(get.records().get(1)).getBody(), StandardCharsets.UTF_8));
        assertEquals(3, get.nextOffset());
    }

    @Test
    void shouldServeAnInnerBatchAsOneRecordCountingItsMessages() throws Exception {
        appendOk(store, draft(BATCH_TOPIC, 1, "single"));
        MessageDraft inner = batch(BATCH_TOPIC, 1, AppendKind.INNER_BATCH, "m1", "m2", "m3", "m4");
        AppendResult r = appendOk(store, inner);
        assertEquals(1, r.queueOffset());
        assertEquals(4, r.messageCount());
        appendOk(store, draft(BATCH_TOPIC, 1, "after"));
        awaitMaxOffset(store, BATCH_TOPIC, 1, 6);

        // An offset inside the batch returns the whole batch record.
        GetResult get = store.getMessages(BATCH_TOPIC, 1, 3, 1, ALL_BYTES, null);

        assertEquals(GetStatus.FOUND, get.status());
        assertEquals(1, get.records().size());
        assertEquals(4, get.messageCount());
        assertEquals(5, get.nextOffset());
        MessageExt record = decode(get.records().get(0));
        assertEquals(1, record.getQueueOffset());
        assertArrayEquals(bytes(inner.body()), record.getBody());
        List<Message> messages = MessageDecoder.decodeMessages(ByteBuffer.wrap(record.getBody()));
        assertEquals(List.of("m1", "m2", "m3", "m4"),
                messages.stream().map(m -> new String(m.getBody(), StandardCharsets.UTF_8)).toList());

        // The first record is always returned; the next one is not if it would exceed maxCount.
        GetResult all = store.getMessages(BATCH_TOPIC, 1, 0, 4, ALL_BYTES, null);
        assertEquals(1, all.records().size(), "the batch of 4 does not fit behind the single message");
        assertEquals(1, all.nextOffset());
        GetResult more = store.getMessages(BATCH_TOPIC, 1, 0, 5, ALL_BYTES, null);
        assertEquals(2, more.records().size());
        assertEquals(5, more.messageCount());
        assertEquals(5, more.nextOffset());
        assertEquals(6, store.maxOffset(BATCH_TOPIC, 1));
    }

    @Test
    void shouldRefuseAnInnerBatchForASimpleTopicWithoutWriting() {
        long before = store.stats().writtenPosition();

        AppendResult r = Await.result(store.append(batch(SIMPLE_TOPIC, 0, AppendKind.INNER_BATCH, "x", "y")));

        assertEquals(AppendStatus.MESSAGE_ILLEGAL, r.status());
        assertEquals(before, store.stats().writtenPosition());
    }

    @Test
    void shouldApplyTheOffsetStatusRules() {
        assertStatus(store.getMessages(SIMPLE_TOPIC, 0, 0, 32, ALL_BYTES, null),
                GetStatus.NO_MATCHED_LOGIC_QUEUE, 0);
        assertStatus(store.getMessages("no-such-topic", 0, 5, 32, ALL_BYTES, null),
                GetStatus.NO_MATCHED_LOGIC_QUEUE, 0);
        assertStatus(store.getMessages("bad topic!", 0, 5, 32, ALL_BYTES, null),
                GetStatus.NO_MATCHED_LOGIC_QUEUE, 0);
        for (int i = 0; i < 4; i++) {
            appendOk(store, draft(SIMPLE_TOPIC, 0, "m" + i));
        }
        awaitMaxOffset(store, SIMPLE_TOPIC, 0, 4);

        assertStatus(store.getMessages(SIMPLE_TOPIC, 0, 4, 32, ALL_BYTES, null), GetStatus.OFFSET_OVERFLOW_ONE, 4);
        assertStatus(store.getMessages(SIMPLE_TOPIC, 0, 9, 32, ALL_BYTES, null), GetStatus.OFFSET_OVERFLOW_BADLY, 4);
        assertStatus(store.getMessages(SIMPLE_TOPIC, 0, -1, 32, ALL_BYTES, null), GetStatus.OFFSET_TOO_SMALL, 0);
        assertStatus(store.getMessages(SIMPLE_TOPIC, 0, 3, 32, ALL_BYTES, null), GetStatus.FOUND, 4);
        GetResult none = store.getMessages(SIMPLE_TOPIC, 0, 0, 32, ALL_BYTES, code -> false);
        assertStatus(none, GetStatus.NO_MATCHED_MESSAGE, 4);
        assertEquals(0, none.maxOffset() - 4);
        assertThrows(IllegalArgumentException.class, () -> store.getMessages(SIMPLE_TOPIC, 0, 0, 0, ALL_BYTES, null));
        assertThrows(IllegalArgumentException.class, () -> store.getMessages(SIMPLE_TOPIC, 0, 0, 1, 0, null));
    }

    private static void assertStatus(GetResult r, GetStatus status, long nextOffset) {
        assertEquals(status, r.status(), r::toString);
        assertEquals(nextOffset, r.nextOffset(), r::toString);
        if (status != GetStatus.FOUND) {
            assertTrue(r.records().isEmpty());
            assertEquals(0, r.messageCount());
        }
    }

    @Test
    void shouldFilterByTagsCodeAndContinueAfterSkippedRecords() {
        appendOk(store, tagged(SIMPLE_TOPIC, 0, "a1", "A"));
        appendOk(store, tagged(SIMPLE_TOPIC, 0, "b1", "B"));
        appendOk(store, tagged(SIMPLE_TOPIC, 0, "a2", "A"));
        appendOk(store, tagged(SIMPLE_TOPIC, 0, "b2", "B"));
        awaitMaxOffset(store, SIMPLE_TOPIC, 0, 4);
        long codeA = "A".hashCode();

        GetResult get = store.getMessages(SIMPLE_TOPIC, 0, 0, 32, ALL_BYTES, code -> code == codeA);

        assertEquals(GetStatus.FOUND, get.status());
        assertEquals(List.of("a1", "a2"), get.records().stream()
                .map(b -> new String(decode(b).getBody(), StandardCharsets.UTF_8)).toList());
        assertEquals(4, get.nextOffset(), "skipped records still advance the next offset");
        GetResult fromB = store.getMessages(SIMPLE_TOPIC, 0, 3, 32, ALL_BYTES, code -> code == codeA);
        assertStatus(fromB, GetStatus.NO_MATCHED_MESSAGE, 4);
    }

    @Test
    void shouldStopAtTheCountAndByteBudgetsButAlwaysReturnTheFirstRecord() {
        AppendResult first = null;
        for (int i = 0; i < 5; i++) {
            AppendResult r = appendOk(store, draft(SIMPLE_TOPIC, 0, "message-" + i));
            first = first == null ? r : first;
        }
        awaitMaxOffset(store, SIMPLE_TOPIC, 0, 5);
        int size = first.wroteBytes();

        GetResult two = store.getMessages(SIMPLE_TOPIC, 0, 0, 2, ALL_BYTES, null);
        assertEquals(2, two.records().size());
        assertEquals(2, two.nextOffset());

        GetResult tiny = store.getMessages(SIMPLE_TOPIC, 0, 1, 32, 1, null);
        assertEquals(1, tiny.records().size(), "the first record is returned whatever its size");
        assertEquals(2, tiny.nextOffset());

        GetResult budget = store.getMessages(SIMPLE_TOPIC, 0, 0, 32, size * 2 + size / 2, null);
        assertEquals(2, budget.records().size());
        assertEquals(size * 2, budget.totalBytes());
        assertEquals(2, budget.nextOffset());
    }

    @Test
    void shouldFindOffsetsAndStoreTimesByTimestamp(@TempDir Path other) throws IOException {
        CachedEpochClock clock = new CachedEpochClock();
        try (MessageStore timed = MessageStore.open(StoreFixture.settings(other).build(), StoreFixture.TYPES,
                StoreFixture.environment(clock, new double[] {0.1}))) {
            for (int i = 0; i < 3; i++) {
                clock.update(1_000L * (i + 1));
                appendOk(timed, draft(SIMPLE_TOPIC, 0, "t" + i));
                appendOk(timed, i == 1 ? batch(BATCH_TOPIC, 0, AppendKind.INNER_BATCH, "x", "y")
                        : draft(BATCH_TOPIC, 0, "t" + i));
            }
            awaitMaxOffset(timed, SIMPLE_TOPIC, 0, 3);
            awaitMaxOffset(timed, BATCH_TOPIC, 0, 4);

            assertEquals(0, timed.offsetByTimestamp(SIMPLE_TOPIC, 0, 500));
            assertEquals(1, timed.offsetByTimestamp(SIMPLE_TOPIC, 0, 2_000));
            assertEquals(2, timed.offsetByTimestamp(SIMPLE_TOPIC, 0, 2_500));
            assertEquals(3, timed.offsetByTimestamp(SIMPLE_TOPIC, 0, 9_000));
            assertEquals(1, timed.offsetByTimestamp(BATCH_TOPIC, 0, 1_500));
            assertEquals(3, timed.offsetByTimestamp(BATCH_TOPIC, 0, 3_000));
            assertEquals(0, timed.offsetByTimestamp("absent", 0, 1_000));
            assertEquals(1_000, timed.earliestStoreTimeMs(SIMPLE_TOPIC, 0));
            assertEquals(-1, timed.earliestStoreTimeMs("absent", 0));
            assertEquals(2_000, timed.storeTimeMsAt(SIMPLE_TOPIC, 0, 1));
            assertEquals(2_000, timed.storeTimeMsAt(BATCH_TOPIC, 0, 2), "inside the inner batch");
            assertEquals(-1, timed.storeTimeMsAt(SIMPLE_TOPIC, 0, 3));
            assertEquals(-1, timed.storeTimeMsAt(SIMPLE_TOPIC, 7, 0));
        }
    }

    @Test
    void shouldTellArrivalListenersTheNewMaxOffset() {
        List<String> arrivals = new CopyOnWriteArrayList<>();
        store.addArrivalListener((topic, queueId, maxOffset) -> arrivals.add(topic + "-" + queueId + "@" + maxOffset));

        appendOk(store, draft(SIMPLE_TOPIC, 3, "x"));
        Await.until("arrival of offset 0", () -> arrivals.contains(SIMPLE_TOPIC + "-3@1"));
        appendOk(store, batch(BATCH_TOPIC, 0, AppendKind.INNER_BATCH, "a", "b", "c"));

        Await.until("arrival of the batch", () -> arrivals.contains(BATCH_TOPIC + "-0@3"));
    }

    @Test
    void shouldKeepDispatchingWhenAListenerThrows() {
        store.addArrivalListener((topic, queueId, maxOffset) -> {
            throw new IllegalStateException("listener bug");
        });
        appendOk(store, draft(SIMPLE_TOPIC, 0, "1"));
        appendOk(store, draft(SIMPLE_TOPIC, 0, "2"));

        awaitMaxOffset(store, SIMPLE_TOPIC, 0, 2);
        Await.until("the listener failure is counted", () -> store.stats().dispatchErrors() >= 1);
        appendOk(store, draft(SIMPLE_TOPIC, 0, "3"));
        awaitMaxOffset(store, SIMPLE_TOPIC, 0, 3);
    }

    @Test
    void shouldDeleteATopicsQueuesAndStartItAgainAtZero() {
        appendOk(store, draft(SIMPLE_TOPIC, 0, "1"));
        appendOk(store, draft(SIMPLE_TOPIC, 1, "2"));
        appendOk(store, draft("other", 0, "kept"));
        awaitDispatched(store);

        assertEquals(2, store.deleteTopic(SIMPLE_TOPIC));

        assertEquals(0, store.maxOffset(SIMPLE_TOPIC, 0));
        assertEquals(GetStatus.NO_MATCHED_LOGIC_QUEUE, store.getMessages(SIMPLE_TOPIC, 0, 0, 1, ALL_BYTES, null)
                .status());
        assertFalse(Files.exists(root.resolve("consumequeue").resolve(SIMPLE_TOPIC)));
        assertEquals(1, store.maxOffset("other", 0));
        assertEquals(0, appendOk(store, draft(SIMPLE_TOPIC, 0, "again")).queueOffset());
        awaitMaxOffset(store, SIMPLE_TOPIC, 0, 1);
    }

    @Test
    void shouldRefuseBadInputWithAStatusAndWriteNothing() {
        appendOk(store, draft(SIMPLE_TOPIC, 0, "valid"));
        long written = store.stats().writtenPosition();
        long appended = store.stats().appendedMessages();

        assertRefused(AppendStatus.MESSAGE_ILLEGAL, draft("bad topic!", 0, "x"));
        assertRefused(AppendStatus.MESSAGE_ILLEGAL, draft("", 0, "x"));
        assertRefused(AppendStatus.MESSAGE_ILLEGAL, draft("t".repeat(128), 0, "x"));
        assertRefused(AppendStatus.MESSAGE_ILLEGAL, draft(SIMPLE_TOPIC, -1, "x"));
        assertRefused(AppendStatus.MESSAGE_ILLEGAL,
                draft(SIMPLE_TOPIC, store.settings().index().maxQueuesPerTopic(), "x"));
        assertRefused(AppendStatus.MESSAGE_ILLEGAL,
                draft(SIMPLE_TOPIC, 0, new byte[StoreFixture.MAX_MESSAGE_BYTES + 1], ""));
        assertRefused(AppendStatus.MESSAGE_ILLEGAL, null);

        assertEquals(written, store.stats().writtenPosition());
        assertEquals(appended, store.stats().appendedMessages());
        assertEquals(7, store.stats().refusedAppends());
    }

    private void assertRefused(AppendStatus status, MessageDraft draft) {
        assertEquals(status, Await.result(store.append(draft)).status());
    }

    @Test
    void shouldNotIndexPreparedOrRolledBackTransactionRecords() {
        appendOk(store, MessageDraft.builder(SIMPLE_TOPIC, 0).body("half".getBytes(StandardCharsets.UTF_8))
                .sysFlag(RecordDescriptor.TRANSACTION_PREPARED_TYPE).bornHost(StoreFixture.BORN_HOST).build());
        appendOk(store, MessageDraft.builder(SIMPLE_TOPIC, 0).body("rollback".getBytes(StandardCharsets.UTF_8))
                .sysFlag(RecordDescriptor.TRANSACTION_ROLLBACK_TYPE).bornHost(StoreFixture.BORN_HOST).build());
        appendOk(store, draft(SIMPLE_TOPIC, 0, "plain"));
        awaitDispatched(store);

        assertEquals(1, store.maxOffset(SIMPLE_TOPIC, 0));
        assertEquals("plain", new String(decode(store.getMessages(SIMPLE_TOPIC, 0, 0, 8, ALL_BYTES, null)
                .records().get(0)).getBody(), StandardCharsets.UTF_8));
        assertEquals(1, store.stats().indexedRecords());
    }

    @Test
    void shouldFindARecordByItsPositionOnly() {
        AppendResult r = appendOk(store, draft(SIMPLE_TOPIC, 0, "by id"));
        awaitDispatched(store);

        Optional<ByteBuffer> found = store.recordAt(r.position());

        assertTrue(found.isPresent());
        assertEquals(r.position(), decode(found.get()).getCommitLogOffset());
        assertTrue(store.recordAt(r.position() + 1).isEmpty());
        assertTrue(store.recordAt(-5).isEmpty());
        assertTrue(store.recordAt(r.nextPosition() + 1_000).isEmpty());
    }

    @Test
    void shouldRefuseASecondStoreOnTheSameDirectory() {
        IOException e = assertThrows(IOException.class, () -> StoreFixture.open(root));
        assertTrue(e.getMessage().contains("in use by another store"), e.getMessage());
    }

    @Test
    void shouldAnswerAbsentQueuesWithZeroOffsets() {
        assertEquals(0, store.minOffset("absent", 0));
        assertEquals(0, store.maxOffset("absent", 0));
        assertEquals(0, store.maxOffset(SIMPLE_TOPIC, -1));
        assertEquals(-1, store.storeTimeMsAt("absent", 0, 0));
    }

    @Test
    void shouldReportPositionsAndLagInStats() {
        AppendResult r = appendOk(store, draft(SIMPLE_TOPIC, 0, "stats"));
        awaitDispatched(store);

        StoreStats stats = store.stats();

        assertEquals(r.nextPosition(), stats.writtenPosition());
        assertEquals(r.nextPosition(), stats.dispatchedPosition());
        assertEquals(0, stats.dispatchLagBytes());
        assertEquals(0, stats.dispatchLagMs());
        assertEquals(0, stats.minPosition());
        assertTrue(stats.writable());
        assertFalse(stats.diskFull());
        assertEquals(1, stats.appendedMessages());
    }

    @Test
    void shouldRefuseAppendsAndReadsAfterClose() {
        store.close();

        assertEquals(AppendStatus.SERVICE_NOT_AVAILABLE, Await.result(store.append(draft(SIMPLE_TOPIC, 0, "late")))
                .status());
        assertThrows(IllegalStateException.class, () -> store.getMessages(SIMPLE_TOPIC, 0, 0, 1, 1, null));
        assertFalse(store.stats().writable());
    }
}
