package io.sluice.store.dispatch.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.store.GetResult;
import io.sluice.store.GetStatus;
import io.sluice.store.MessageStore;
import io.sluice.store.StoreSettings;
import io.sluice.store.StoreStats;
import io.sluice.store.dispatch.DispatchMode;
import io.sluice.store.dispatch.DispatchSettings;
import io.sluice.store.dispatch.pipeline.PipelineFixture.Inner;
import io.sluice.store.dispatch.pipeline.PipelineFixture.Op;
import io.sluice.store.dispatch.pipeline.PipelineFixture.Single;
import io.sluice.store.log.AppendResult;
import io.sluice.testing.Await;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The store façade running the pipelined dispatcher: reads, listeners, stats, clean restart in either mode. */
class PipelinedStoreTest {

    @TempDir
    Path root;

    private MessageStore open(DispatchMode mode) throws IOException {
        StoreSettings.Builder b = StoreSettings.builder(root, PipelineFixture.STORE_HOST);
        b.log().segmentBytes(PipelineFixture.SEGMENT_BYTES).maxMessageBytes(PipelineFixture.MAX_MESSAGE_BYTES)
                .segmentAllocationTimeoutMs(60_000);
        b.dispatch(DispatchSettings.defaults().withMode(mode).withPipeline(PipelineFixture.smallChunks()));
        return MessageStore.open(b.build(), PipelineFixture.TYPE_OF);
    }

    private static AppendResult append(MessageStore store, Op op, int seed) {
        return Await.result(store.append(PipelineFixture.draft(op, seed)));
    }

    @Test
    void shouldRunThePipelineByDefault() {
        assertEquals(DispatchMode.PIPELINED, DispatchSettings.defaults().mode());
    }

    @Test
    void shouldServeWhatThePipelineDispatchedAndRestartInEitherMode() throws IOException {
        Map<String, Long> arrivals = new ConcurrentHashMap<>();
        try (MessageStore store = open(DispatchMode.PIPELINED)) {
            store.addArrivalListener((topic, queueId, max) -> arrivals.put(topic + "-" + queueId, max));
            for (int i = 0; i < 300; i++) {
                append(store, new Single("S0", i % 3, 200, "t" + i % 2), i);
            }
            AppendResult batch = append(store, new Inner("B0", 1, 32, 50, "b"), 1000);
            assertEquals(0, batch.queueOffset());
            Await.until("everything dispatched", () -> store.maxOffset("B0", 1) == 32);
            Await.until("listeners told", () -> Long.valueOf(32).equals(arrivals.get("B0-1"))
                    && Long.valueOf(100).equals(arrivals.get("S0-2")));

            GetResult simple = store.getMessages("S0", 2, 10, 5, 1 << 20, tags -> true);
            assertEquals(GetStatus.FOUND, simple.status());
            assertEquals(5, simple.messageCount());
            assertEquals(15, simple.nextOffset());
            GetResult inner = store.getMessages("B0", 1, 7, 100, 1 << 20, tags -> true);
            assertEquals(GetStatus.FOUND, inner.status());
            assertEquals(32, inner.messageCount(), "the whole inner batch");

            // The writer tells listeners before it publishes the dispatched position.
            Await.until("dispatched position published",
                    () -> store.stats().dispatchedPosition() >= store.stats().writtenPosition());
            StoreStats stats = store.stats();
            assertEquals(stats.writtenPosition(), stats.dispatchedPosition());
            assertEquals(301, stats.indexedRecords());
            assertEquals(0, stats.dispatchLagBytes());
        }
        try (MessageStore store = open(DispatchMode.SERIAL)) {
            assertFalse(store.recoveryReport().crashed(), "the pipelined store stopped cleanly");
            assertEquals(100, store.maxOffset("S0", 0));
            append(store, new Single("S0", 0, 10, null), 1);
            Await.until("serial dispatch", () -> store.maxOffset("S0", 0) == 101);
        }
        try (MessageStore store = open(DispatchMode.PIPELINED)) {
            assertEquals(101, store.maxOffset("S0", 0));
            append(store, new Single("S0", 0, 10, null), 2);
            Await.until("pipelined dispatch after restart", () -> store.maxOffset("S0", 0) == 102);
            assertTrue(store.stats().dispatchedPosition() > 0);
        }
    }

    @Test
    void shouldKeepListenersAddedAfterStart() throws IOException {
        try (MessageStore store = open(DispatchMode.PIPELINED)) {
            Map<String, Long> arrivals = new ConcurrentHashMap<>();
            append(store, new Single("S1", 0, 10, null), 1);
            Await.until("first message", () -> store.maxOffset("S1", 0) == 1);
            store.addArrivalListener((topic, queueId, max) -> arrivals.put(topic + "-" + queueId, max));
            append(store, new Single("S1", 0, 10, null), 2);
            Await.until("late listener told", () -> Long.valueOf(2).equals(arrivals.get("S1-0")));
            assertEquals(List.of("S1-0"), List.copyOf(arrivals.keySet()));
        }
    }
}
