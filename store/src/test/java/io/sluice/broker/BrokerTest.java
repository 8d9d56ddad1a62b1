package io.sluice.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.sluice.broker.config.BrokerConfigLoader;
import io.sluice.broker.config.BrokerSettings;
import io.sluice.store.StoreSettings;
import io.sluice.store.dispatch.DispatchMode;
import io.sluice.store.dispatch.pipeline.PipelineSettings;
import java.io.RandomAccessFile;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** How the broker turns its configuration into the store's settings. */
class BrokerTest {

    private static final InetSocketAddress HOST = new InetSocketAddress("127.0.0.1", 10911);

    @Test
    void shouldHandTheDispatchKeysToTheStore() {
        BrokerSettings s = BrokerConfigLoader.parse("""
                storePathRootDir=/tmp/sluice-broker-test-unused
                dispatchMode=serial
                dispatchChunkBytes=1048576
                dispatchMaxRecordsPerChunk=1024
                dispatchParseThreads=3
                dispatchRingSlots=8
                dispatchInlineMaxBytes=0
                dispatchAppenderAssist=false
                """);
        StoreSettings store = Broker.storeSettings(s, HOST);
        assertEquals(DispatchMode.SERIAL, store.dispatch().mode());
        assertEquals(new PipelineSettings(1 << 20, 1024, 3, 8, false, 0, false), store.dispatch().pipeline());
    }

    @Test
    void shouldGiveTheStoreTheDefaultPipelineWithoutDispatchKeys() {
        StoreSettings store = Broker.storeSettings(
                BrokerConfigLoader.parse("storePathRootDir=/tmp/sluice-broker-test-unused\n"), HOST);
        assertEquals(DispatchMode.PIPELINED, store.dispatch().mode());
        assertEquals(PipelineSettings.defaults(), store.dispatch().pipeline());
        assertEquals(false, store.log().preallocateSegments());
    }

    @Test
    void shouldPreallocateSegmentsWithWarmMapedFileEnable() {
        StoreSettings store = Broker.storeSettings(BrokerConfigLoader.parse(
                "storePathRootDir=/tmp/sluice-broker-test-unused\nwarmMapedFileEnable=true\n"), HOST);
        assertEquals(true, store.log().preallocateSegments());
    }

    @Test
    void shouldFlushTheKeyIndexByItsOwnKeyAndSpanBatchCqSlotsWithinALogSegment() {
        StoreSettings defaults = Broker.storeSettings(
                BrokerConfigLoader.parse("storePathRootDir=/tmp/sluice-broker-test-unused\n"), HOST);
        assertEquals(10_000, defaults.keyIndex().checkpointIntervalMs());
        assertEquals(1_000, defaults.checkpointIntervalMs(), "consume queues keep flushIntervalConsumeQueue");
        assertEquals(4 * 1024 * 1024, defaults.index().batchCqSpanMaxBytes());
        assertEquals(defaults.log().segmentBytes(), defaults.index().logSegmentBytes());

        StoreSettings set = Broker.storeSettings(BrokerConfigLoader.parse("""
                storePathRootDir=/tmp/sluice-broker-test-unused
                flushIntervalKeyIndex=2500
                batchCqSpanMaxBytes=0
                mappedFileSizeCommitLog=67108864
                """), HOST);
        assertEquals(2_500, set.keyIndex().checkpointIntervalMs());
        assertEquals(0, set.index().batchCqSpanMaxBytes());
        assertEquals(64 * 1024 * 1024, set.index().logSegmentBytes());
    }

    @Test
    void shouldKeepTheSegmentSizeOfAnExistingCommitLog(@TempDir Path dir) throws Exception {
        String conf = "storePathRootDir=" + dir + "\n";
        StoreSettings fresh = Broker.storeSettings(BrokerConfigLoader.parse(conf), HOST);
        assertEquals(128 << 20, fresh.log().segmentBytes(), "a new store takes the default");

        Path log = Files.createDirectories(dir.resolve("commitlog"));
        for (long start : new long[] {1L << 30, 2L << 30}) { // a store made with Apache's 1 GiB files
            try (RandomAccessFile file = new RandomAccessFile(log.resolve(String.format("%020d", start)).toFile(),
                    "rw")) {
                file.setLength(1L << 30); // sparse
            }
        }
        StoreSettings existing = Broker.storeSettings(BrokerConfigLoader.parse(conf), HOST);
        assertEquals(1 << 30, existing.log().segmentBytes());
        assertEquals(1 << 30, existing.index().logSegmentBytes());
        assertEquals(1 << 30, Broker.storeSettings(BrokerConfigLoader.parse(conf
                + "mappedFileSizeCommitLog=67108864\n"), HOST).log().segmentBytes(), "the files win over the key");
    }
}
