package io.sluice.store.dispatch.pipeline;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.store.index.ConsumeQueueTable;
import io.sluice.store.log.AppendResult;
import io.sluice.store.log.AppendStatus;
import io.sluice.testing.Await;
import io.sluice.store.log.CommitLog;
import io.sluice.store.log.MessageDraft;
import io.sluice.store.log.ReadResult;
import io.sluice.format.RecordDescriptor;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.constraints.Size;

/**
 * Differential test of the decoder's allocation-free fast path against {@link io.sluice.store.log.RecordParser}
 * alone: for random records (v1 and v2 topics, IPv4 and IPv6 hosts, transactions, inner batches, tricky property
 * strings, non-ASCII tags) and random byte damage, both produce exactly the same entries, outcomes and damage.
 */
class RecordChunkDecoderTest {

    /** One record to append. */
    record Spec(String topic, int queueId, int bodyBytes, String properties, int txType, boolean ipv6, boolean inner) {
    }

    /** One byte to overwrite, at a fraction of the written data. */
    record Damage(double at, byte value) {
    }

    @Property(tries = 150)
    void fastPathDecodesExactlyAsTheParser(@ForAll("records") @Size(min = 1, max = 60) List<Spec> records,
                                           @ForAll("damage") @Size(max = 2) List<Damage> damage) throws IOException {
        Path root = Files.createTempDirectory("sluice-decoder");
        try (CommitLog log = PipelineFixture.openLog(root);
             ConsumeQueueTable queues = PipelineFixture.openQueues(root)) {
            int seed = 0;
            for (Spec spec : records) {
                AppendResult r = Await.result(log.append(draft(spec, seed++)));
                assertEquals(AppendStatus.PUT_OK, r.status(), () -> spec + ": " + r);
            }
            long end = Math.min(log.writtenPosition(), PipelineFixture.SEGMENT_BYTES);
            for (Damage d : damage) {
                PipelineFixture.overwrite(root, (long) (d.at() * (end - 1)), new byte[] {d.value()});
            }
            ReadResult view = log.readRecord(0, (int) end);
            assertTrue(view.isFound());
            Chunk fast = decode(new RecordChunkDecoder(queues::getOrCreate, false, true), view, end);
            Chunk slow = decode(new RecordChunkDecoder(queues::getOrCreate, false, false), view, end);
            assertSameDecoding(slow, fast);
        } finally {
            deleteRecursively(root);
        }
    }

    private static Chunk decode(RecordChunkDecoder decoder, ReadResult view, long end) {
        Chunk chunk = new Chunk();
        chunk.describeRecords(0, 0, end, PipelineFixture.SEGMENT_BYTES, view.buffer(), 0);
        decoder.decode(chunk, new DecodeScratch());
        return chunk;
    }

    private static void assertSameDecoding(Chunk expected, Chunk actual) {
        int n = expected.count;
        assertEquals(n, actual.count, "entries");
        assertArrayEquals(Arrays.copyOf(expected.queues, n), Arrays.copyOf(actual.queues, n), "queues");
        assertArrayEquals(Arrays.copyOf(expected.topics, n), Arrays.copyOf(actual.topics, n), "topics");
        assertArrayEquals(Arrays.copyOf(expected.queueIds, n), Arrays.copyOf(actual.queueIds, n), "queue ids");
        assertArrayEquals(Arrays.copyOf(expected.queueOffsets, n), Arrays.copyOf(actual.queueOffsets, n), "offsets");
        assertArrayEquals(Arrays.copyOf(expected.batchCounts, n), Arrays.copyOf(actual.batchCounts, n), "batches");
        assertArrayEquals(Arrays.copyOf(expected.positions, n), Arrays.copyOf(actual.positions, n), "positions");
        assertArrayEquals(Arrays.copyOf(expected.sizes, n), Arrays.copyOf(actual.sizes, n), "sizes");
        assertArrayEquals(Arrays.copyOf(expected.tagsCodes, n), Arrays.copyOf(actual.tagsCodes, n), "tags codes");
        assertArrayEquals(Arrays.copyOf(expected.storeTimestamps, n), Arrays.copyOf(actual.storeTimestamps, n),
                "store times");
        assertArrayEquals(Arrays.copyOf(expected.touched, expected.touchedCount),
                Arrays.copyOf(actual.touched, actual.touchedCount), "touched queues");
        assertEquals(expected.damagePosition, actual.damagePosition, "damage position");
        assertEquals(expected.damageReason, actual.damageReason, "damage reason");
        assertEquals(expected.transactionSkipped, actual.transactionSkipped, "transaction records");
        assertEquals(expected.unindexable, actual.unindexable, "unindexable records");
    }

    private static MessageDraft draft(Spec spec, int seed) {
        MessageDraft.Builder b = MessageDraft.builder(spec.topic(), spec.queueId())
                .propertiesText(spec.properties())
                .bornHost(spec.ipv6() ? new InetSocketAddress("::1", 4242) : PipelineFixture.BORN_HOST)
                .sysFlag(spec.inner() ? 0 : spec.txType())
                .bornTimestampMs(1_700_000_000_000L + seed);
        if (spec.inner()) {
            return b.body(PipelineFixture.batchBody(1 + seed % 5, spec.bodyBytes(), seed))
                    .kind(io.sluice.store.log.AppendKind.INNER_BATCH).build();
        }
        return b.body(PipelineFixture.body(spec.bodyBytes(), seed)).build();
    }

    @Provide
    Arbitrary<List<Spec>> records() {
        Arbitrary<String> topics = Arbitraries.frequencyOf(
                Tuple.of(6, Arbitraries.of("S0", "S1", "B0", "T-x_y%z|w")),
                Tuple.of(1, Arbitraries.just("%RETRY%" + "g".repeat(150))));
        Arbitrary<String> tagValues = Arbitraries.frequencyOf(
                Tuple.of(5, Arbitraries.strings().alpha().numeric().ofMinLength(0).ofMaxLength(12)),
                Tuple.of(1, Arbitraries.of("é", "標籤", "a\u00ffb")));
        Arbitrary<String> piece = Arbitraries.frequencyOf(
                Tuple.of(4, tagValues.map(v -> "TAGS\u0001" + v + "\u0002")),
                Tuple.of(2, Arbitraries.of("KEYS\u0001k1 k2\u0002", "UNIQ_KEY\u0001ABC\u0002", "TAGSX\u0001no\u0002",
                        "TAG\u0001no\u0002", "\u0001TAGS\u0002", "TAGS\u0002", "x", "TAGS\u0001a\u0001b\u0002")),
                Tuple.of(1, tagValues.map(v -> "TAGS\u0001" + v)));
        Arbitrary<String> properties = piece.list().ofMaxSize(4).map(list -> String.join("", list));
        Arbitrary<Integer> tx = Arbitraries.frequencyOf(Tuple.of(8, Arbitraries.just(0)),
                Tuple.of(1, Arbitraries.of(RecordDescriptor.TRANSACTION_PREPARED_TYPE,
                        RecordDescriptor.TRANSACTION_COMMIT_TYPE, RecordDescriptor.TRANSACTION_ROLLBACK_TYPE)));
        Arbitrary<Spec> spec = Combinators.combine(topics, Arbitraries.integers().between(0, 3),
                Arbitraries.integers().between(0, 600), properties, tx, Arbitraries.of(false, true),
                Arbitraries.frequencyOf(Tuple.of(5, Arbitraries.just(false)), Tuple.of(1, Arbitraries.just(true))))
                .as(Spec::new);
        return spec.list();
    }

    @Provide
    Arbitrary<List<Damage>> damage() {
        return Combinators.combine(Arbitraries.doubles().between(0, 1), Arbitraries.bytes()).as(Damage::new).list();
    }

    private static void deleteRecursively(Path root) {
        try (Stream<Path> walk = Files.walk(root)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
