package io.sluice.store.log;

import io.sluice.testing.Await;
import io.sluice.format.MessageIdDescriptor;
import io.sluice.format.BatchBodyDescriptor;
import io.sluice.format.RecordDescriptor;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.store.DispatchEntry;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageDecoder;
import org.apache.rocketmq.common.message.MessageExt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CommitLogAppendTest {

    @TempDir
    Path dir;

    @Test
    void shouldAssignDenseQueueOffsetsPerQueue() throws IOException {
        try (CommitLog log = LogFixture.openRecovered(dir)) {
            for (int i = 0; i < 5; i++) {
                assertEquals(i, LogFixture.appendOk(log, LogFixture.draft("A", 0, "a" + i)).queueOffset());
                assertEquals(i, LogFixture.appendOk(log, LogFixture.draft("A", 1, "b" + i)).queueOffset());
                assertEquals(i, LogFixture.appendOk(log, LogFixture.draft("B", 0, "c" + i)).queueOffset());
            }
            assertEquals(5, log.queueOffsets().nextOffset("A", 0));
            assertEquals(5, log.queueOffsets().nextOffset("A", 1));
            assertEquals(0, log.queueOffsets().nextOffset("A", 2));
            assertEquals(Map.of("A-0", 5L, "A-1", 5L, "B-0", 5L), log.queueOffsets().snapshot());
            log.queueOffsets().set("A", 0, 100);
            assertEquals(100, LogFixture.appendOk(log, LogFixture.draft("A", 0, "x")).queueOffset());
        }
    }

    @Test
    void shouldRollToTheNextSegmentBehindABlankRecord() throws IOException {
        try (CommitLog log = LogFixture.openRecovered(dir)) {
            List<AppendResult> results = new ArrayList<>();
            byte[] body = LogFixture.filled(10_000, 1);
            while (log.writtenPosition() < LogFixture.SEGMENT_BYTES) {
                results.add(LogFixture.appendOk(log, LogFixture.draft("Roll", 0, body, "")));
            }
            AppendResult first = results.get(results.size() - 1);
            AppendResult lastInFirst = results.get(results.size() - 2);
            assertEquals(LogFixture.SEGMENT_BYTES, first.position(), "the record that did not fit opens segment 2");
            long blankAt = lastInFirst.nextPosition();
            int blankBytes = (int) (LogFixture.SEGMENT_BYTES - blankAt);
            assertTrue(blankBytes >= 8 && blankBytes < first.wroteBytes() + 8);
            ByteBuffer blank = log.readRecord(blankAt, 8).buffer();
            assertEquals(blankBytes, blank.getInt(0));
            assertEquals(RecordDescriptor.MAGIC_BLANK, blank.getInt(4));
            try (Stream<Path> files = Files.list(log.settings().commitLogDir())) {
                List<String> names = files.map(p -> p.getFileName().toString()).sorted().collect(Collectors.toList());
                assertTrue(names.containsAll(List.of("00000000000000000000", "00000000000000131072")), names::toString);
            }

            RecordCursor cursor = log.cursor(0);
            List<ScanStatus> statuses = new ArrayList<>();
            List<Long> offsets = new ArrayList<>();
            ScanResult r;
            while ((r = cursor.next()).status() != ScanStatus.NO_MORE_DATA) {
                statuses.add(r.status());
                if (r.status() == ScanStatus.VALID) {
                    offsets.add(r.entry().queueOffset());
                }
            }
            assertEquals(ScanStatus.END_OF_SEGMENT, statuses.get(results.size() - 1));
            assertEquals(results.size() + 1, statuses.size());
            for (int i = 0; i < offsets.size(); i++) {
                assertEquals(i, offsets.get(i));
            }
            assertEquals(log.writtenPosition(), cursor.position());
        }
    }

    @Test
    void shouldNoteOnlyTrueRecordBoundariesAcrossBatchesAndSegmentRolls() throws IOException {
        try (CommitLog log = LogFixture.openRecovered(LogFixture.settings(dir).boundaryGranuleBytes(512).build(),
                LogEnvironment.system())) {
            Random random = new Random(7);
            for (int i = 0; log.writtenPosition() < 3L * LogFixture.SEGMENT_BYTES; i++) {
                if (i % 7 == 3) {
                    List<BatchBodyDescriptor.Message> messages = new ArrayList<>();
                    for (int k = 0; k < 1 + random.nextInt(8); k++) {
                        messages.add(new BatchBodyDescriptor.Message(0, LogFixture.filled(random.nextInt(900), k),
                                "UNIQ_KEY\u0001u" + i + "-" + k + "\u0002"));
                    }
                    LogFixture.appendOk(log, LogFixture.draft("Batch", 0, BatchBodyDescriptor.encode(messages), "")
                            .withKind(AppendKind.UNPACKED_BATCH));
                } else {
                    LogFixture.appendOk(log, LogFixture.draft("T", i % 4, LogFixture.filled(random.nextInt(3_000), i),
                            ""));
                }
            }
            // The true boundaries, from a walk of the log (a blank end record is a record too).
            List<Long> boundaries = new ArrayList<>();
            long position = 0;
            boundaries.add(position);
            while (position < log.writtenPosition()) {
                ScanResult r = log.scan(position, false);
                assertTrue(r.status() == ScanStatus.VALID || r.status() == ScanStatus.END_OF_SEGMENT, r::toString);
                position = r.nextPosition();
                boundaries.add(position);
            }
            int hits = 0;
            for (int q = 0; q < 5_000; q++) {
                int a = random.nextInt(boundaries.size());
                long from = boundaries.get(a);
                long limit = boundaries.get(a + random.nextInt(boundaries.size() - a));
                int maxBytes = 1 + random.nextInt(20_000);
                int maxRecords = 1 + random.nextInt(40);
                long e = log.knownRecordBoundary(from, limit, maxBytes, maxRecords);
                if (e == -1) {
                    continue;
                }
                hits++;
                int records = Collections.binarySearch(boundaries, e) - a;
                assertTrue(records > 0 && e <= Math.min(limit, from + maxBytes) && records <= maxRecords,
                        "from " + from + " limit " + limit + " maxBytes " + maxBytes + " maxRecords " + maxRecords
                                + ": " + e + " (" + records + " records)");
            }
            assertTrue(hits > 1_000, "the appender's hints answered " + hits + " of 5000 queries");
        }
    }

    @Test
    void shouldWriteAnUnpackedBatchAllTogetherInTheNextSegmentWhenItDoesNotFit() throws IOException {
        try (CommitLog log = LogFixture.openRecovered(dir)) {
            byte[] filler = LogFixture.filled(1_000, 2);
            while (log.writtenPosition() < LogFixture.SEGMENT_BYTES - 15_000) {
                LogFixture.appendOk(log, LogFixture.draft("Fill", 0, filler, ""));
            }
            long before = log.writtenPosition();
            List<BatchBodyDescriptor.Message> messages = new ArrayList<>();
            for (int i = 0; i < 5; i++) {
                messages.add(new BatchBodyDescriptor.Message(i, LogFixture.filled(5_000, 10 + i),
                        "UNIQ_KEY\u0001id" + i + "\u0002TAGS\u0001t" + i + "\u0002"));
            }
            MessageDraft draft = LogFixture.draft("Batch", 2, BatchBodyDescriptor.encode(messages),
                    "CLUSTER\u0001DefaultCluster\u0002UNIQ_KEY\u0001batch\u0002").withKind(AppendKind.UNPACKED_BATCH);
            AppendResult r = LogFixture.appendOk(log, draft);

            long room = LogFixture.SEGMENT_BYTES - before;
            assertTrue(room > 8 + 2 * 5_200 && room < 5 * 5_000, "part of the batch would have fit: " + room);
            assertEquals(LogFixture.SEGMENT_BYTES, r.position(), "the whole batch moved to the next segment");
            assertEquals(5, r.messageCount());
            assertEquals(5, r.recordCount());
            assertEquals(0, r.queueOffset());
            assertEquals(5, log.queueOffsets().nextOffset("Batch", 2));
            String[] ids = r.msgIds().split(",");
            assertEquals(5, ids.length);

            ByteBuffer all = log.readRecord(r.position(), r.wroteBytes()).buffer();
            List<MessageExt> decoded = MessageDecoder.decodes(all);
            assertEquals(5, decoded.size());
            for (int i = 0; i < 5; i++) {
                MessageExt m = decoded.get(i);
                assertEquals(i, m.getQueueOffset());
                assertEquals(r.recordPosition(i), m.getCommitLogOffset());
                assertEquals(ids[i], MessageDecoder.createMessageId(m.getStoreHost(), m.getCommitLogOffset()));
                assertEquals(i, m.getFlag());
                assertEquals(r.storeTimestampMs(), m.getStoreTimestamp(), "one store time for the batch");
                assertArrayEquals(messages.get(i).body(), m.getBody());
                assertEquals("id" + i, m.getProperty("UNIQ_KEY"), "each record keeps its own UNIQ_KEY");
                assertEquals(null, m.getProperty("CLUSTER"), "batch-level properties are not stored");
            }
            assertEquals(r.nextPosition(), log.writtenPosition());
        }
    }

    @Test
    void shouldStoreAnInnerBatchAsOneRecordAdvancingTheQueueByItsSize() throws Exception {
        try (CommitLog log = LogFixture.openRecovered(dir)) {
            AppendResult first = LogFixture.appendOk(log, innerBatch(3, "TAGS\u0001tg\u0002UNIQ_KEY\u0001b1"));
            // A broker may already have set NEED_UNWRAP | INNER_BATCH itself.
            AppendResult second = LogFixture.appendOk(log, MessageDraft.builder("Inner", 0)
                    .body(innerBatch(4, "").body()).propertiesText("UNIQ_KEY\u0001b2\u0002").sysFlag(0xC0)
                    .bornHost(LogFixture.BORN_HOST).kind(AppendKind.INNER_BATCH).build());
            AppendResult single = LogFixture.appendOk(log, LogFixture.draft("Inner", 0, "plain"));
            assertEquals(0, first.queueOffset());
            assertEquals(3, first.messageCount());
            assertEquals(1, first.recordCount());
            assertEquals(3, second.queueOffset());
            assertEquals(7, single.queueOffset());
            assertEquals(8, log.queueOffsets().nextOffset("Inner", 0));

            MessageExt record = MessageDecoder.decode(log.readRecord(second.position(), second.wroteBytes()).buffer(),
                    true, true);
            assertEquals(0xC0, record.getSysFlag());
            assertEquals(3, record.getQueueOffset());
            assertEquals("4", record.getProperty("INNER_NUM"));
            assertEquals("3", record.getProperty("INNER_BASE"));
            assertEquals("b2", record.getProperty("UNIQ_KEY"));
            List<Message> inner = MessageDecoder.decodeMessages(ByteBuffer.wrap(record.getBody()));
            assertEquals(4, inner.size());
            assertEquals("m2", new String(inner.get(2).getBody(), StandardCharsets.UTF_8));

            RecordCursor cursor = log.cursor(0);
            DispatchEntry e1 = cursor.next().entry();
            DispatchEntry e2 = cursor.next().entry();
            DispatchEntry e3 = cursor.next().entry();
            assertEquals(0, e1.queueOffset());
            assertEquals(3, e1.batchCount());
            assertEquals("tg".hashCode(), e1.tagsCode());
            assertEquals(3, e2.queueOffset());
            assertEquals(4, e2.batchCount());
            assertEquals(0, e2.tagsCode());
            assertEquals(7, e3.queueOffset());
            assertEquals(1, e3.batchCount());
            assertEquals(7, e2.nextQueueOffset());
        }
    }

    @Test
    void shouldWriteALongInnerBaseAfterMultiByteProperties() throws Exception {
        try (CommitLog log = LogFixture.openRecovered(dir)) {
            log.queueOffsets().set("Inner", 0, 12_345_678_901L);
            AppendResult r = LogFixture.appendOk(log, innerBatch(12, "KEYS\u0001caf\u00e9 \u00fcber"));
            MessageExt record = MessageDecoder.decode(log.readRecord(r.position(), r.wroteBytes()).buffer(),
                    true, true);
            assertEquals(12_345_678_901L, record.getQueueOffset());
            assertEquals("12", record.getProperty("INNER_NUM"));
            assertEquals("12345678901", record.getProperty("INNER_BASE"));
            assertEquals("caf\u00e9 \u00fcber", record.getProperty("KEYS"));
            assertEquals(12_345_678_913L, log.queueOffsets().nextOffset("Inner", 0));
            assertEquals(r.nextPosition(), log.writtenPosition(), "TOTALSIZE matches the bytes written");
        }
    }

    @Test
    void singleRecordResultNamesItsOnlyRecord() throws IOException {
        try (CommitLog log = LogFixture.openRecovered(dir)) {
            LogFixture.appendOk(log, LogFixture.draft("S", 0, "first"));
            AppendResult r = LogFixture.appendOk(log, LogFixture.draft("S", 0, "second"));
            assertEquals(1, r.recordCount());
            assertEquals(r.position(), r.recordPosition(0));
            assertThrows(IndexOutOfBoundsException.class, () -> r.recordPosition(1));
            assertEquals(MessageIdDescriptor.offsetMsgId(LogFixture.STORE_HOST, r.position()), r.msgIds());
            assertEquals(r.msgIds(), r.withStatus(AppendStatus.FLUSH_DISK_TIMEOUT).msgIds());
        }
    }

    @Test
    void shouldKeepTopicsAndHostsApartWhenDraftsAlternate() throws IOException {
        InetSocketAddress v6 = LogFixture.ipv6(40000);
        try (CommitLog log = LogFixture.openRecovered(dir)) {
            List<AppendResult> results = new ArrayList<>();
            for (int i = 0; i < 6; i++) {
                boolean even = i % 2 == 0;
                results.add(LogFixture.appendOk(log, MessageDraft.builder(even ? "Even" : "Odd", 0)
                        .body(("m" + i).getBytes(StandardCharsets.UTF_8))
                        .bornHost(even ? LogFixture.BORN_HOST : v6).build()));
                // An illegal topic or an unresolved host right after a cached legal one is still refused.
                assertStatus(log, MessageDraft.builder(even ? "Ev en" : "Od/d", 0).body(new byte[1])
                        .bornHost(LogFixture.BORN_HOST).build(), AppendStatus.MESSAGE_ILLEGAL);
                assertStatus(log, MessageDraft.builder(even ? "Even" : "Odd", 0).body(new byte[1])
                        .bornHost(InetSocketAddress.createUnresolved("nowhere.invalid", 1)).build(),
                        AppendStatus.MESSAGE_ILLEGAL);
            }
            for (int i = 0; i < 6; i++) {
                AppendResult r = results.get(i);
                MessageExt m = MessageDecoder.decode(log.readRecord(r.position(), r.wroteBytes()).buffer(), true,
                        true);
                boolean even = i % 2 == 0;
                assertEquals(even ? "Even" : "Odd", m.getTopic());
                assertEquals(even ? LogFixture.BORN_HOST : v6, m.getBornHost());
                assertEquals(i / 2, m.getQueueOffset());
            }
        }
    }

    private static MessageDraft innerBatch(int n, String properties) {
        List<BatchBodyDescriptor.Message> messages = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            messages.add(new BatchBodyDescriptor.Message(0, ("m" + i).getBytes(StandardCharsets.UTF_8),
                    "UNIQ_KEY\u0001inner" + i + "\u0002"));
        }
        return LogFixture.draft("Inner", 0, BatchBodyDescriptor.encode(messages), properties)
                .withKind(AppendKind.INNER_BATCH);
    }

    @Test
    void shouldComputeTagsCodeAsTheSignExtendedHashOfTags() throws IOException {
        String tag = "negative-hash-tag-zz";
        assertTrue(tag.hashCode() < 0 || "TagA".hashCode() > 0);
        try (CommitLog log = LogFixture.openRecovered(dir)) {
            LogFixture.appendOk(log, LogFixture.draft("T", 0, "x".getBytes(StandardCharsets.UTF_8),
                    "TAGS\u0001" + tag + "\u0002"));
            LogFixture.appendOk(log, LogFixture.draft("T", 0, "y"));
            RecordCursor cursor = log.cursor(0);
            assertEquals((long) tag.hashCode(), cursor.next().entry().tagsCode());
            assertEquals(0L, cursor.next().entry().tagsCode());
        }
    }

    @Test
    void shouldNotGiveTransactionHalfMessagesAQueueOffset() throws IOException {
        try (CommitLog log = LogFixture.openRecovered(dir)) {
            MessageDraft half = MessageDraft.builder("Tx", 0).body("half".getBytes(StandardCharsets.UTF_8))
                    .bornHost(LogFixture.BORN_HOST).sysFlag(RecordDescriptor.TRANSACTION_PREPARED_TYPE).build();
            AppendResult r = LogFixture.appendOk(log, half);
            assertEquals(0, r.queueOffset());
            assertEquals(0, log.queueOffsets().nextOffset("Tx", 0));
            assertEquals(0, LogFixture.appendOk(log, LogFixture.draft("Tx", 0, "normal")).queueOffset());
        }
    }

    @Test
    void shouldRefuseBadDraftsWithAStatusAndWriteNothing() throws IOException {
        try (CommitLog log = LogFixture.openRecovered(dir)) {
            LogFixture.appendOk(log, LogFixture.draft("Ok", 0, "first"));
            long end = log.writtenPosition();
            byte[] tooBig = new byte[LogFixture.MAX_MESSAGE_BYTES + 1];
            String hugeProps = "K\u0001" + "v".repeat(32_767) + "\u0002";
            byte[] badBatch = BatchBodyDescriptor.encode(List.of(new BatchBodyDescriptor.Message(0, new byte[3], "")));
            ByteBuffer.wrap(badBatch).putInt(0, 7);

            assertStatus(log, LogFixture.draft("Ok", 0, tooBig, ""), AppendStatus.MESSAGE_ILLEGAL);
            assertStatus(log, LogFixture.draft("Ok", 0, new byte[1], hugeProps), AppendStatus.PROPERTIES_SIZE_EXCEEDED);
            assertStatus(log, LogFixture.draft("", 0, "x"), AppendStatus.MESSAGE_ILLEGAL);
            assertStatus(log, LogFixture.draft(null, 0, "x"), AppendStatus.MESSAGE_ILLEGAL);
            assertStatus(log, LogFixture.draft("bad topic", 0, "x"), AppendStatus.MESSAGE_ILLEGAL);
            assertStatus(log, LogFixture.draft("T".repeat(128), 0, "x"), AppendStatus.MESSAGE_ILLEGAL);
            assertStatus(log, LogFixture.draft("%RETRY%" + "T".repeat(249), 0, "x"), AppendStatus.MESSAGE_ILLEGAL);
            assertStatus(log, LogFixture.draft("Ok", -1, "x"), AppendStatus.MESSAGE_ILLEGAL);
            assertStatus(log, LogFixture.draft("Ok", 70_000, "x"), AppendStatus.MESSAGE_ILLEGAL);
            assertStatus(log, MessageDraft.builder("Ok", 0).body((ByteBuffer) null).build(),
                    AppendStatus.MESSAGE_ILLEGAL);
            assertStatus(log, MessageDraft.builder("Ok", 0).body(new byte[1]).bornHost(null).build(),
                    AppendStatus.MESSAGE_ILLEGAL);
            assertStatus(log, LogFixture.draft("Ok", 0, new byte[1], "INNER_NUM\u00013\u0002"),
                    AppendStatus.MESSAGE_ILLEGAL);
            assertStatus(log, MessageDraft.builder("Ok", 0).body(new byte[1]).sysFlag(0x80).build(),
                    AppendStatus.MESSAGE_ILLEGAL);
            assertStatus(log, LogFixture.draft("Ok", 0, badBatch, "").withKind(AppendKind.UNPACKED_BATCH),
                    AppendStatus.MESSAGE_ILLEGAL);
            assertStatus(log, LogFixture.draft("Ok", 0, badBatch, "").withKind(AppendKind.INNER_BATCH),
                    AppendStatus.MESSAGE_ILLEGAL);
            assertStatus(log, LogFixture.draft("Ok", 0, new byte[0], "").withKind(AppendKind.UNPACKED_BATCH),
                    AppendStatus.MESSAGE_ILLEGAL);
            byte[] goodBatch = BatchBodyDescriptor.encode(List.of(new BatchBodyDescriptor.Message(0, new byte[3], "")));
            assertStatus(log, LogFixture.draft("Ok", 0, goodBatch, "DELAY\u00013\u0002")
                    .withKind(AppendKind.UNPACKED_BATCH), AppendStatus.MESSAGE_ILLEGAL);
            assertStatus(log, LogFixture.draft("Ok", 0, goodBatch, "").withKind(null), AppendStatus.MESSAGE_ILLEGAL);
            // 1 480 empty entries are 32 560 bytes on the wire (within maxMessageBytes) but 137 640 bytes as
            // 93-byte records: more than a 128 KiB segment holds.
            List<BatchBodyDescriptor.Message> tiny = new ArrayList<>();
            for (int i = 0; i < 1_480; i++) {
                tiny.add(new BatchBodyDescriptor.Message(0, new byte[0], ""));
            }
            assertStatus(log, LogFixture.draft("Ok", 0, BatchBodyDescriptor.encode(tiny), "")
                    .withKind(AppendKind.UNPACKED_BATCH), AppendStatus.MESSAGE_ILLEGAL);

            assertEquals(end, log.writtenPosition(), "nothing was written");
            assertEquals(1, log.queueOffsets().nextOffset("Ok", 0));
            AppendResult retry = LogFixture.appendOk(log, LogFixture.draft("%RETRY%" + "g".repeat(200), 0, "x"));
            assertEquals(RecordDescriptor.MAGIC_V2, log.readRecord(retry.position(), 8).buffer().getInt(4));
        }
    }

    private static void assertStatus(CommitLog log, MessageDraft draft, AppendStatus expected) {
        AppendResult r = Await.result(log.append(draft));
        assertEquals(expected, r.status());
        assertFalse(r.status().isStored());
        assertEquals("", r.msgIds());
    }

    @Test
    void shouldRefuseAppendsBeforeRecoveryAfterCloseAndWhileTheDiskIsFull() throws IOException {
        LogEnvironment env = LogEnvironment.system();
        CommitLog log = CommitLog.open(LogFixture.settings(dir).build(), env);
        assertEquals(AppendStatus.SERVICE_NOT_AVAILABLE, Await.result(log.append(LogFixture.draft("T", 0, "x")))
                .status());
        log.recover(0, true, e -> { });
        env.failureHandler().markDiskFull(true);
        assertEquals(AppendStatus.DISK_FULL, Await.result(log.append(LogFixture.draft("T", 0, "x"))).status());
        env.failureHandler().markDiskFull(false);
        LogFixture.appendOk(log, LogFixture.draft("T", 0, "x"));
        log.close();
        assertEquals(AppendStatus.SERVICE_NOT_AVAILABLE, Await.result(log.append(LogFixture.draft("T", 0, "x")))
                .status());
    }

    @Test
    void shouldAnswerReadsWithViewsOrAClearStatus() throws IOException {
        try (CommitLog log = LogFixture.openRecovered(dir)) {
            AppendResult r = LogFixture.appendOk(log, LogFixture.draft("R", 0, "payload"));
            ReadResult found = log.readRecord(r.position(), r.wroteBytes());
            assertEquals(ReadStatus.FOUND, found.status());
            assertTrue(found.buffer().isReadOnly());
            assertEquals(r.wroteBytes(), found.buffer().remaining());
            assertEquals(ReadStatus.BEYOND_END, log.readRecord(r.position(), r.wroteBytes() + 1).status());
            assertEquals(ReadStatus.BEYOND_END, log.readRecord(10L * LogFixture.SEGMENT_BYTES, 10).status());
            assertEquals(ReadStatus.INVALID_RANGE, log.readRecord(-1, 10).status());
            assertEquals(ReadStatus.INVALID_RANGE, log.readRecord(0, 0).status());
            assertNotEquals(null, found.buffer());
            ScanResult atEnd = log.scan(log.writtenPosition(), true);
            assertEquals(ScanStatus.NO_MORE_DATA, atEnd.status());
        }
    }
}
