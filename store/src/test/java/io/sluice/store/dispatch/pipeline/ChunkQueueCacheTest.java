package io.sluice.store.dispatch.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.store.index.ConsumeQueue;
import io.sluice.store.index.ConsumeQueueTable;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(60)
class ChunkQueueCacheTest {

    @TempDir
    Path dir;

    /**
     * Random puts, gets and clears against a map of what was put last per key: a get answers that queue or nothing
     * (a colliding key replaced it), never another queue; a get right after a put answers it; a clear forgets all.
     */
    @Test
    void neverAnswersAQueueThatWasNotLastPutForTheKey() throws Exception {
        try (ConsumeQueueTable table = PipelineFixture.openQueues(dir)) {
            String[] topics = {"A0-x", "B0-y", "A1-z"};
            ChunkQueueCache cache = new ChunkQueueCache();
            Map<String, ConsumeQueue> model = new HashMap<>();
            Random random = new Random(20261121L);
            int hits = 0;
            for (int step = 0; step < 20_000; step++) {
                String topic = topics[random.nextInt(topics.length)];
                // An equal topic that is another instance must find the same entry.
                String lookedUp = random.nextBoolean() ? topic : new String(topic);
                int queueId = random.nextInt(300);
                String key = topic + "#" + queueId;
                int op = random.nextInt(100);
                if (op == 0) {
                    cache.clear();
                    model.clear();
                    for (String t : topics) {
                        assertNull(cache.get(t, queueId), "cleared: " + t + "#" + queueId);
                    }
                } else if (op < 40) {
                    ConsumeQueue queue = table.getOrCreate(topic, queueId);
                    cache.put(lookedUp, queueId, queue);
                    model.put(key, queue);
                    assertSame(queue, cache.get(topic, queueId), "step " + step + ": just put " + key);
                } else {
                    ConsumeQueue actual = cache.get(lookedUp, queueId);
                    if (actual != null) {
                        assertSame(model.get(key), actual, "step " + step + ": " + key);
                        hits++;
                    }
                }
            }
            assertTrue(hits > 200, "the test exercised hits, not only misses: " + hits);
        }
    }

    @Test
    void refusesToCacheNoQueue() {
        ChunkQueueCache cache = new ChunkQueueCache();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> cache.put("T", 3, null));
        assertEquals("no queue to cache for T-3", e.getMessage());
    }
}
