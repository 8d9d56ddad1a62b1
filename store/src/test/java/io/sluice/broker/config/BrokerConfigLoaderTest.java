package io.sluice.broker.config;

import io.sluice.store.dispatch.DispatchMode;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.store.dispatch.pipeline.PipelineSettings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class BrokerConfigLoaderTest {

    @TempDir
    Path tmp;

    @Test
    void shouldApplyApacheDefaultsWhenNoFileIsGiven() {
        BrokerSettings s = BrokerConfigLoader.defaults();
        assertEquals("DefaultCluster", s.brokerClusterName());
        assertEquals("broker-a", s.brokerName());
        assertEquals(0, s.brokerId());
        assertEquals(List.of(), s.namesrvAddresses());
        assertEquals(10911, s.listenPort());
        assertEquals("", s.brokerIp1());
        assertEquals(FlushDiskType.ASYNC_FLUSH, s.flushDiskType());
        assertEquals(false, s.autoCreateTopicEnable());
        assertEquals(List.of(4), s.deleteWhenHours());
        assertEquals(72, s.fileReservedHours());
        assertEquals(75, s.diskMaxUsedSpaceRatio());
        assertEquals(4_194_304, s.maxMessageBytes());
        assertEquals(128 << 20, s.commitLogSegmentBytes());
        assertEquals(8, s.defaultTopicQueueNums());
        assertEquals(5_000, s.syncFlushTimeoutMs());
        assertEquals(500, s.flushIntervalCommitLogMs());
        assertEquals(30_000, s.registerBrokerIntervalMs());
        assertEquals(16 << 20, s.serverMaxFrameBytes());
        assertEquals(DispatchMode.PIPELINED, s.dispatchMode());
        assertEquals(PipelineSettings.defaults(), s.dispatchPipeline());
        assertEquals(18, s.delayLevelsMs().size());
        assertEquals(10_000L, s.delayLevelsMs().get(2));
        Path root = Path.of(System.getProperty("user.home"), "store");
        assertEquals(root, s.storePathRootDir());
        assertEquals(root.resolve("commitlog"), s.storePathCommitLog());
        assertEquals(root.resolve("config").resolve("metadata"), s.metadataDir());
    }

    @Test
    void shouldReadAFileWithCommentsAndSurroundingWhitespace() throws Exception {
        Path file = tmp.resolve("broker.conf");
        Files.writeString(file, """
                # a comment
                ! another comment
                brokerName = broker-b
                listenPort=10921  \s
                storePathRootDir=%s
                flushDiskType=SYNC_FLUSH
                namesrvAddr=10.0.0.1:9876;localhost:9877
                """.formatted(tmp.resolve("store")));
        BrokerSettings s = BrokerConfigLoader.load(file);
        assertEquals("broker-b", s.brokerName());
        assertEquals(10921, s.listenPort());
        assertEquals(FlushDiskType.SYNC_FLUSH, s.flushDiskType());
        assertEquals(List.of("10.0.0.1:9876", "localhost:9877"), s.namesrvAddresses());
        assertEquals(tmp.resolve("store").resolve("commitlog"), s.storePathCommitLog());
    }

    @Test
    void shouldNameTheUnknownKeyAndTheFile() throws Exception {
        Path file = tmp.resolve("typo.conf");
        Files.writeString(file, "brokerName=b\nflushDiskTyp=SYNC_FLUSH\n");
        ConfigException e = assertThrows(ConfigException.class, () -> BrokerConfigLoader.load(file));
        assertEquals("flushDiskTyp", e.key());
        assertTrue(e.getMessage().contains("flushDiskTyp"), e.getMessage());
        assertTrue(e.getMessage().contains(file.toString()), e.getMessage());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '=', value = {
        "listenPort=abc",
        "listenPort=70000",
        "fileReservedTime=-1",
        "maxMessageSize=-5",
        "diskMaxUsedSpaceRatio=96",
        "diskMaxUsedSpaceRatio=9",
        "flushDiskType=FAST_FLUSH",
        "flushDiskType=sync_flush",
        "brokerId=-1",
        "brokerRole=MASTER",
        "haListenPort=65536",
        "haMasterAddress=localhost",
        "deleteWhen=25",
        "deleteWhen=04;x",
        "autoCreateTopicEnable=yes",
        "mappedFileSizeConsumeQueue=6000001",
        "mapperFileSizeBatchConsumeQueue=100",
        "namesrvAddr=localhost",
        "namesrvAddr=localhost:0",
        "brokerIP1=my-host",
        "brokerIP1=300.1.1.1",
        "brokerName=broker a",
        "dispatchMode=parallel",
        "dispatchChunkBytes=1000",
        "dispatchMaxRecordsPerChunk=0",
        "dispatchParseThreads=-1",
        "dispatchRingSlots=0",
        "dispatchInlineMaxBytes=x",
        "dispatchAppenderAssist=sometimes",
        "messageDelayLevel=1s 5x",
        "storePathCommitLog=/a,/b",
        "syncFlushTimeout=0"})
    void shouldNameTheKeyAndTheBadValue(String key, String value) {
        ConfigException e = assertThrows(ConfigException.class,
                () -> BrokerConfigLoader.parse(key + "=" + value + "\n"));
        assertEquals(key, e.key());
        assertTrue(e.getMessage().contains("'" + key + "'"), e.getMessage());
        assertTrue(e.getMessage().contains("'" + value + "'"), e.getMessage());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "brokerId=1|brokerId",
        "brokerRole=SLAVE;haMasterAddress=127.0.0.1:10912|brokerId",
        "brokerRole=SYNC_MASTER;brokerId=2|brokerId",
        "brokerId=1;brokerRole=SLAVE|haMasterAddress"})
    void shouldRefuseARoleThatDoesNotFitTheBrokerId(String conf, String key) {
        ConfigException e = assertThrows(ConfigException.class,
                () -> BrokerConfigLoader.parse(conf.replace(';', '\n') + "\n"));
        assertEquals(key, e.key());
    }

    @Test
    void shouldPutTheHaPortBesideTheListenPortUnlessSet() {
        assertEquals(10912, BrokerConfigLoader.parse("").haListenPort());
        assertEquals(20912, BrokerConfigLoader.parse("listenPort=20911\n").haListenPort());
        assertEquals(0, BrokerConfigLoader.parse("listenPort=0\n").haListenPort(), "any free port for tests");
        assertEquals(30000, BrokerConfigLoader.parse("listenPort=20911\nhaListenPort=30000\n").haListenPort());
    }

    @Test
    void shouldAcceptASlaveAndASyncMaster() {
        BrokerSettings slave = BrokerConfigLoader.parse(
                "brokerId=1\nbrokerRole=SLAVE\nhaMasterAddress=127.0.0.1:10912\n");
        assertEquals(1, slave.brokerId());
        assertEquals(BrokerRole.SLAVE, slave.brokerRole());
        assertEquals("127.0.0.1:10912", slave.haMasterAddress());
        assertEquals(BrokerRole.SYNC_MASTER, BrokerConfigLoader.parse("brokerRole=SYNC_MASTER\n").brokerRole());
    }

    @Test
    void shouldShapeThePipelineFromItsKeys() {
        BrokerSettings s = BrokerConfigLoader.parse("""
                dispatchChunkBytes=1048576
                dispatchMaxRecordsPerChunk=1024
                dispatchParseThreads=3
                dispatchRingSlots=8
                dispatchInlineMaxBytes=0
                dispatchAppenderAssist=false
                """);
        assertEquals(new PipelineSettings(1 << 20, 1024, 3, 8, false, 0, false), s.dispatchPipeline());
    }

    @Test
    void shouldAcceptApacheStyleDeleteWhenLists() {
        assertEquals(List.of(4, 5), BrokerConfigLoader.parse("deleteWhen=04;05").deleteWhenHours());
        assertEquals(List.of(0, 4, 23), BrokerConfigLoader.parse("deleteWhen= 23 ; 4;00;04").deleteWhenHours());
    }

    @Test
    void shouldRejectAKeySetTwice() {
        ConfigException e = assertThrows(ConfigException.class,
                () -> BrokerConfigLoader.parse("listenPort=1\nlistenPort=2\n"));
        assertEquals("listenPort", e.key());
        assertTrue(e.getMessage().contains("more than once"), e.getMessage());
    }

    @Test
    void shouldCheckCrossKeyRules() {
        ConfigException segment = assertThrows(ConfigException.class,
                () -> BrokerConfigLoader.parse("mappedFileSizeCommitLog=1048576\nmaxMessageSize=1048576\n"));
        assertEquals("mappedFileSizeCommitLog", segment.key());
        ConfigException frame = assertThrows(ConfigException.class,
                () -> BrokerConfigLoader.parse("serverMaxFrameBytes=1048576\nmaxMessageSize=2097152\n"));
        assertEquals("serverMaxFrameBytes", frame.key());
        BrokerConfigLoader.parse("mappedFileSizeCommitLog=1114112\nmaxMessageSize=1048576\n");
    }

    @Test
    void shouldNameThePropertiesSource() {
        Properties p = new Properties();
        p.setProperty("nope", "1");
        ConfigException e = assertThrows(ConfigException.class, () -> BrokerConfigLoader.parse(p, "command line"));
        assertTrue(e.getMessage().contains("command line"), e.getMessage());
    }

    @Test
    void shouldReadBackItsOwnEffectiveConfiguration() {
        BrokerSettings s = BrokerConfigLoader.parse("""
                deleteWhen=05;04
                messageDelayLevel=1s 90s 2m 1d
                brokerIP1=fe80::1
                namesrvAddr=a:1;b:2
                dispatchMode=SERIAL
                """);
        assertEquals(List.of(1_000L, 90_000L, 120_000L, 86_400_000L), s.delayLevelsMs());
        assertEquals(DispatchMode.SERIAL, s.dispatchMode());
        StringBuilder text = new StringBuilder();
        for (Map.Entry<String, String> e : s.toProperties().entrySet()) {
            text.append(e.getKey()).append('=').append(e.getValue()).append('\n');
        }
        assertEquals(s, BrokerConfigLoader.parse(text.toString()));
        assertEquals("04;05", s.toProperties().get("deleteWhen"));
    }

    @Test
    void shouldBuildSettingsInCodeWithTheSameValidation() {
        BrokerSettings s = BrokerSettings.builder()
                .set(BrokerConfigKeys.STORE_PATH_ROOT_DIR, tmp)
                .set(BrokerConfigKeys.LISTEN_PORT, 0)
                .set(BrokerConfigKeys.MAPPED_FILE_SIZE_COMMIT_LOG, 1 << 20)
                .set(BrokerConfigKeys.MAX_MESSAGE_SIZE, 64 * 1024)
                .build();
        assertEquals(0, s.listenPort());
        assertEquals(tmp.resolve("commitlog"), s.storePathCommitLog());
        ConfigException range = assertThrows(ConfigException.class,
                () -> BrokerSettings.builder().set(BrokerConfigKeys.DISK_MAX_USED_SPACE_RATIO, 99));
        assertTrue(range.getMessage().contains("'99'"), range.getMessage());
        ConfigException root = assertThrows(ConfigException.class, () -> BrokerSettings.builder().build());
        assertEquals("storePathRootDir", root.key());
    }
}
