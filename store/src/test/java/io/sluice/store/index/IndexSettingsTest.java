package io.sluice.store.index;

import static io.sluice.store.index.ConsumeQueueContractTest.assertRejects;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class IndexSettingsTest {

    private final IndexSettings defaults = IndexSettings.defaults(Path.of("/store"));

    @Test
    void defaultsAreUpstreamSizes() {
        assertEquals(300_000, defaults.simpleCqSlotsPerFile());
        assertEquals(300_000, defaults.batchCqSlotsPerFile());
        assertEquals(3, defaults.recoveryScanFiles());
        assertEquals(Path.of("/store/consumequeue"), defaults.simpleCqDir());
        assertEquals(Path.of("/store/batchconsumequeue"), defaults.batchCqDir());
    }

    @Test
    void invalidValuesAreRejectedNamingThem() {
        assertRejects(() -> defaults.withSimpleCqSlotsPerFile(0), "simpleCqSlotsPerFile");
        assertRejects(() -> defaults.withSimpleCqSlotsPerFile(Integer.MAX_VALUE / 20 + 1),
                String.valueOf(Integer.MAX_VALUE / 20 + 1));
        assertRejects(() -> defaults.withBatchCqSlotsPerFile(-5), "-5");
        assertRejects(() -> defaults.withBatchCqSlotsPerFile(Integer.MAX_VALUE / 46 + 1), "batchCqSlotsPerFile");
        assertRejects(() -> defaults.withMaxQueuesPerTopic(0), "maxQueuesPerTopic must be in [1, 65536], was 0");
        assertRejects(() -> defaults.withMaxQueuesPerTopic(65_537), "65537");
        assertRejects(() -> defaults.withRecoveryScanFiles(0), "recoveryScanFiles");
        assertRejects(() -> new IndexSettings(null, 1, 1, 1, 1, 0, 0, 0), "rootDir");
    }

    @Test
    void theLargestFilesStillFitOneMapping() {
        assertEquals(Integer.MAX_VALUE / 20, defaults.withSimpleCqSlotsPerFile(Integer.MAX_VALUE / 20)
                .simpleCqSlotsPerFile());
        assertEquals(Integer.MAX_VALUE / 46, defaults.withBatchCqSlotsPerFile(Integer.MAX_VALUE / 46)
                .batchCqSlotsPerFile());
    }
}
