package io.sluice.store.dispatch.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

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

    /** Random puts, gets and clears against a map, over enough keys to make the table grow twice. */
    @Test
    void answersAsAMapKeyedByTopicAndQueueIdWouldAcrossGrowthAndClears() throws Exception {
        try (ConsumeQueueTable table = PipelineFixture.openQueues(dir)) {
            String[] topics = {"A0-x", "B0-y", "A1-z"};
            ChunkQueueCache cache = new ChunkQueueCache();
            Map<String, ConsumeQueue> model = new HashMap<>();
            Random random = new Random(20261121L);
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
                } else if (op < 40 && !model.containsKey(key)) {
                    ConsumeQueue queue = table.getOrCreate(topic, queueId);
                    cache.put(lookedUp, queueId, queue);
                    model.put(key, queue);
                } else {
                    ConsumeQueue expected = model.get(key);
                    ConsumeQueue actual = cache.get(lookedUp, queueId);
                    if (expected == null) {
                        assertNull(actual, "step " + step + ": " + key);
                    } else {
                        assertSame(expected, actual, "step " + step + ": " + key);
                    }
                }
                assertEquals(model.size(), cache.size(), "step " + step);
            }
        }
    }

    @Test
    void refusesToCacheNoQueue() {
        ChunkQueueCache cache = new ChunkQueueCache();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> cache.put("T", 3, null));
        assertEquals("no queue to cache for T-3", e.getMessage());
    }
}
