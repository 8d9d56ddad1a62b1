package io.sluice.broker.handler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.broker.schedule.DelayScheduler;
import io.sluice.broker.schedule.ScheduleSettings;
import io.sluice.broker.stats.BrokerStats;
import io.sluice.broker.testing.FakeConnection;
import io.sluice.broker.testing.OpenStores;
import io.sluice.remoting.protocol.ProtocolVersion;
import io.sluice.remoting.protocol.RemotingCommand;
import io.sluice.remoting.protocol.RequestCode;
import io.sluice.remoting.protocol.ResponseCode;
import io.sluice.remoting.protocol.body.BodyCodec;
import io.sluice.remoting.protocol.body.DataVersion;
import io.sluice.remoting.protocol.body.KVTable;
import io.sluice.store.log.AppendResult;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicLong;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.AlphaChars;
import net.jqwik.api.constraints.StringLength;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BrokerInfoHandlerTest {

    private static final long BOOT_MS = 1_700_000_000_000L;

    @TempDir
    Path dir;

    private final FakeConnection connection = new FakeConnection(7001);

    private static Properties load(byte[] text) throws IOException {
        Properties p = new Properties();
        p.load(new ByteArrayInputStream(text)); // ISO-8859-1, as the Apache client reads it
        return p;
    }

    @Property(tries = 200)
    void configTextReadsBackThroughJavaProperties(@ForAll @AlphaChars @StringLength(min = 1, max = 20) String key,
                                                  @ForAll String value) throws IOException {
        Map<String, String> config = new LinkedHashMap<>();
        config.put(key, value);
        config.put("namesrvAddr", "127.0.0.1:9876;127.0.0.2:9876");
        Properties read = load(BrokerInfoHandler.propertiesText(config).getBytes(StandardCharsets.ISO_8859_1));
        assertEquals(config.size(), read.size());
        config.forEach((k, v) -> assertEquals(v, read.getProperty(k), k));
    }

    @Test
    void secretsAreMaskedAndUnsetOnesLeftEmpty() {
        Map<String, String> config = new LinkedHashMap<>();
        config.put("initAuthenticationUser", "{\"username\":\"admin\",\"password\":\"pw\"}");
        config.put("innerClientAuthenticationCredentials", "");
        config.put("tls.server.keyPassword", "key-pw");
        config.put("brokerName", "b1");
        Map<String, String> shown = BrokerInfoHandler.masked(config);
        assertEquals(Map.of("initAuthenticationUser", BrokerInfoHandler.MASK,
                "innerClientAuthenticationCredentials", "", "tls.server.keyPassword", BrokerInfoHandler.MASK,
                "brokerName", "b1"), shown);
    }

    @Test
    void shouldAnswerTheEffectiveConfigAndAVersion() throws IOException {
        try (OpenStores stores = OpenStores.open(dir)) {
            Map<String, String> config = new LinkedHashMap<>();
            config.put("brokerName", "broker-a");
            config.put("storePathRootDir", "/data/st\u00f6re = x");
            config.put("messageDelayLevel", "1s 5s");
            BrokerInfoHandler handler = handler(stores, config, new AtomicLong(BOOT_MS));
            RemotingCommand response = handler.onGetBrokerConfig(connection,
                    RemotingCommand.request(RequestCode.GET_BROKER_CONFIG));
            assertEquals(ResponseCode.SUCCESS, response.code());
            Properties read = load(response.body());
            assertEquals(config.size(), read.size());
            config.forEach((k, v) -> assertEquals(v, read.getProperty(k)));
            DataVersion version = BodyCodec.decode(response.extField("version").getBytes(StandardCharsets.UTF_8),
                    DataVersion.class);
            assertEquals(BOOT_MS, version.timestamp());
        }
    }

    @Test
    void shouldAnswerTheRuntimeInfoClusterListReads() throws IOException {
        try (OpenStores stores = OpenStores.open(dir)) {
            stores.createTopic("T", 1);
            AppendResult first = stores.append(OpenStores.draft("T", 0, "a", ""));
            stores.append(OpenStores.draft("T", 0, "b", ""));
            AtomicLong nowMs = new AtomicLong(BOOT_MS + 90_061_000L);
            BrokerInfoHandler handler = handler(stores, Map.of(), nowMs);
            RemotingCommand response = handler.onGetRuntimeInfo(connection,
                    RemotingCommand.request(RequestCode.GET_BROKER_RUNTIME_INFO));
            assertEquals(ResponseCode.SUCCESS, response.code());
            Map<String, String> t = BodyCodec.decode(response.body(), KVTable.class).table();
            for (String key : List.of("brokerVersionDesc", "brokerActive", "putTps", "getTransferredTps",
                    "getTransferedTps", "sendThreadPoolQueueSize", "pullThreadPoolQueueSize", "ackThreadPoolQueueSize",
                    "sendThreadPoolQueueHeadWaitTimeMills", "pullThreadPoolQueueHeadWaitTimeMills",
                    "ackThreadPoolQueueHeadWaitTimeMills", "pageCacheLockTimeMills", "earliestMessageTimeStamp",
                    "commitLogDiskRatio", "timerReadBehind", "timerOffsetBehind", "timerCongestNum",
                    "timerEnqueueTps", "timerDequeueTps", "msgPutTotalYesterdayMorning", "msgPutTotalTodayMorning",
                    "msgPutTotalTodayNow", "msgGetTotalYesterdayMorning", "msgGetTotalTodayMorning",
                    "msgGetTotalTodayNow")) {
                assertTrue(t.containsKey(key), key);
            }
            assertEquals("V5_3_3", t.get("brokerVersionDesc"));
            assertEquals("development build", t.get("sluiceVersion"), "classes outside a jar have no release");
            assertEquals("2", t.get("msgPutTotalTodayNow"));
            assertEquals("3", t.get("sendThreadPoolQueueSize"));
            assertEquals("7", t.get("pullThreadPoolQueueSize"));
            assertEquals("0", t.get("ackThreadPoolQueueSize"));
            assertEquals(Long.toString(first.storeTimestampMs()), t.get("earliestMessageTimeStamp"));
            assertEquals("[ 1 days, 1 hours, 1 minutes, 1 seconds ]", t.get("runtime"));
            assertTrue(t.get("putTps").matches("\\d+\\.\\d\\d \\d+\\.\\d\\d \\d+\\.\\d\\d"), t.get("putTps"));
            double ratio = Double.parseDouble(t.get("commitLogDiskRatio"));
            assertTrue(ratio >= 0 && ratio <= 1, t.get("commitLogDiskRatio"));
            assertEquals("0,0", t.get("scheduleMessageOffset_1"));
            for (String key : List.of("dispatchBehindBytes", "dispatchBehindMs")) {
                assertTrue(t.containsKey(key), key);
                assertTrue(Long.parseLong(t.get(key)) >= 0, key + "=" + t.get(key));
            }
            assertEquals(null, t.get("scheduleMessageOffset_3"), "one key per configured level");
        }
    }

    @Test
    void shouldNameTheCurrentProtocolVersion() {
        assertEquals(ProtocolVersion.V5_3_3, ProtocolVersion.CURRENT,
                "BrokerInfoHandler.VERSION_DESC must follow ProtocolVersion.CURRENT");
        assertEquals("V5_3_3", BrokerInfoHandler.VERSION_DESC);
        assertEquals("[ 0 days, 0 hours, 0 minutes, 0 seconds ]", BrokerInfoHandler.uptime(-5));
    }

    private static BrokerInfoHandler handler(OpenStores stores, Map<String, String> config, AtomicLong nowMs) {
        BrokerStats stats = new BrokerStats(() -> stores.store().stats().appendedMessages(), nowMs::get,
                ZoneOffset.UTC);
        DelayScheduler scheduler = new DelayScheduler(stores.store(), stores.metadata(),
                ScheduleSettings.of(List.of(1_000L, 2_000L)), nowMs::get);
        return new BrokerInfoHandler(() -> config, stores.store(), stats, scheduler, nowMs::get, BOOT_MS,
                new QueuedRequests(() -> 3, () -> 7), timeMs -> Map.of("timerReadBehind", "0", "timerOffsetBehind",
                "0", "timerCongestNum", "0", "timerEnqueueTps", "0.00", "timerDequeueTps", "0.00"));
    }
}
