package io.sluice.broker.handler;

import io.sluice.broker.config.BrokerConfigKeys;
import io.sluice.broker.schedule.DelayScheduler;
import io.sluice.broker.stats.BrokerStats;
import io.sluice.remoting.protocol.ProtocolVersion;
import io.sluice.remoting.protocol.RemotingCommand;
import io.sluice.remoting.protocol.ResponseCode;
import io.sluice.remoting.protocol.body.BodyCodec;
import io.sluice.remoting.protocol.body.DataVersion;
import io.sluice.remoting.protocol.body.KVTable;
import io.sluice.remoting.transport.ConnectionContext;
import io.sluice.store.MessageStore;
import io.sluice.store.StoreStats;
import io.sluice.format.RecordDescriptor;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.LongFunction;
import java.util.function.Supplier;
import org.agrona.concurrent.EpochClock;

/**
 * What the broker is and how it runs, for admin tools (docs/wire-protocol.md#admin-queries): GET_BROKER_CONFIG (26)
 * and GET_BROKER_RUNTIME_INFO (28).
 *
 * <ul>
 *   <li>26: header {@code version} = the config's DataVersion JSON, stamped with the boot time; body = the settings
 *       in force as Java-properties text, non-ASCII as {@code \}{@code uXXXX} (the client reads ISO-8859-1).</li>
 *   <li>28: body = KVTable with every key {@code mqadmin clusterList} reads (all strings), Apache's
 *       {@code brokerVersion}, {@code bootTimestamp}, {@code runtime}, {@code commitLogMin/MaxOffset},
 *       {@code dispatchBehindBytes}, {@code scheduleMessageOffset_<level>}, and Sluice's {@code sluiceVersion} and
 *       {@code dispatchBehindMs} ({@link StoreStats#dispatchLagBytes()}, {@link StoreStats#dispatchLagMs()}: 0 when
 *       caught up). Queue sizes come from {@link QueuedRequests}, timer figures from the timer service; figures Sluice
 *       does not measure are 0. The get rate goes as {@code getTransferredTps} and {@code getTransferedTps} (4.x).</li>
 * </ul>
 *
 * <p>Thread-safe; stateless apart from its collaborators. Quick enough for the connection's lane.
 */
public final class BrokerInfoHandler {

    /** The Apache version name of {@link ProtocolVersion#CURRENT}. */
    static final String VERSION_DESC = "V5_3_3";
    /** Sluice's own version, from the jar manifest; classes outside a jar (tests) are a development build. */
    static final String SLUICE_VERSION = Optional.ofNullable(BrokerInfoHandler.class.getPackage()
            .getImplementationVersion()).orElse("development build");

    /** What GET_BROKER_CONFIG shows in place of a secret. */
    static final String MASK = "******";

    private final Supplier<Map<String, String>> effectiveConfig;
    private final MessageStore store;
    private final BrokerStats stats;
    private final DelayScheduler scheduler;
    private final EpochClock clock;
    private final long bootTimestampMs;
    private final QueuedRequests queued;
    private final LongFunction<Map<String, String>> timerFigures;

    /**
     * @param effectiveConfig every setting in force as text, in documentation order (BrokerSettings.toProperties()),
     *                        read at each request since UPDATE_BROKER_CONFIG changes some
     * @param store           positions and disk usage
     * @param stats           message counters and rates
     * @param scheduler       delay-level progress
     * @param clock           the time source of the uptime
     * @param bootTimestampMs when the broker started, epoch ms
     * @param queued          the send and pull requests waiting for a thread
     * @param timerFigures    the timer figures (timerReadBehind, timerOffsetBehind, ...) at a given time
     */
    public BrokerInfoHandler(Supplier<Map<String, String>> effectiveConfig, MessageStore store, BrokerStats stats,
                             DelayScheduler scheduler, EpochClock clock, long bootTimestampMs,
                             QueuedRequests queued, LongFunction<Map<String, String>> timerFigures) {
        this.timerFigures = timerFigures;
        this.store = store;
        this.stats = stats;
        this.scheduler = scheduler;
        this.clock = clock;
        this.bootTimestampMs = bootTimestampMs;
        this.queued = queued;
        this.effectiveConfig = effectiveConfig;
    }

    /** GET_BROKER_CONFIG (26). */
    public RemotingCommand onGetBrokerConfig(ConnectionContext connection, RemotingCommand request) {
        String version = new String(BodyCodec.encode(new DataVersion(0, bootTimestampMs, 0)), StandardCharsets.UTF_8);
        return RemotingCommand.response(ResponseCode.SUCCESS, null)
                .putExtField("version", version)
                .setBody(propertiesText(masked(effectiveConfig.get())).getBytes(StandardCharsets.ISO_8859_1));
    }

    /** The settings with every set secret (passwords, credentials) replaced by {@link #MASK}. */
    static Map<String, String> masked(Map<String, String> settings) {
        Map<String, String> copy = new LinkedHashMap<>(settings);
        copy.replaceAll((key, value) -> BrokerConfigKeys.SECRET_KEYS.contains(key) && value != null
                && !value.isEmpty() ? MASK : value);
        return copy;
    }

    /** GET_BROKER_RUNTIME_INFO (28). */
    public RemotingCommand onGetRuntimeInfo(ConnectionContext connection, RemotingCommand request) {
        return RemotingCommand.response(ResponseCode.SUCCESS, null)
                .setBody(BodyCodec.encode(new KVTable(runtimeInfo())));
    }

    /** The runtime info table (GET_BROKER_RUNTIME_INFO's body). */
    Map<String, String> runtimeInfo() {
        long nowMs = clock.time();
        StoreStats s = store.stats();
        Map<String, String> t = new LinkedHashMap<>();
        t.put("brokerVersionDesc", VERSION_DESC);
        t.put("brokerVersion", Integer.toString(ProtocolVersion.CURRENT));
        t.put("sluiceVersion", SLUICE_VERSION);
        t.put("brokerActive", "true");
        t.put("bootTimestamp", Long.toString(bootTimestampMs));
        t.put("runtime", uptime(nowMs - bootTimestampMs));
        t.put("putTps", stats.putTps());
        String getTps = stats.getTransferredTps();
        t.put("getTransferredTps", getTps);
        t.put("getTransferedTps", getTps);
        t.put("msgPutTotalYesterdayMorning", Long.toString(stats.putTotalYesterdayMorning()));
        t.put("msgPutTotalTodayMorning", Long.toString(stats.putTotalTodayMorning()));
        t.put("msgPutTotalTodayNow", Long.toString(stats.putTotal()));
        t.put("msgGetTotalYesterdayMorning", Long.toString(stats.getTotalYesterdayMorning()));
        t.put("msgGetTotalTodayMorning", Long.toString(stats.getTotalTodayMorning()));
        t.put("msgGetTotalTodayNow", Long.toString(stats.getTotal()));
        for (String pool : new String[] {"send", "pull", "ack", "query", "lite", "heartbeat"}) {
            t.put(pool + "ThreadPoolQueueSize", "0");
            t.put(pool + "ThreadPoolQueueHeadWaitTimeMills", "0");
        }
        t.put("sendThreadPoolQueueSize", Integer.toString(queued.sends().getAsInt()));
        t.put("pullThreadPoolQueueSize", Integer.toString(queued.pulls().getAsInt()));
        t.put("pageCacheLockTimeMills", "0");
        t.put("earliestMessageTimeStamp", Long.toString(earliestMessageTimeMs(s)));
        String diskRatio = Double.toString(Math.max(0, s.diskUsedRatio()));
        t.put("commitLogDiskRatio", diskRatio);
        t.put("consumeQueueDiskRatio", diskRatio);
        t.put("commitLogMinOffset", Long.toString(s.minPosition()));
        t.put("commitLogMaxOffset", Long.toString(s.writtenPosition()));
        t.put("dispatchBehindBytes", Long.toString(s.dispatchLagBytes()));
        t.put("dispatchBehindMs", Long.toString(s.dispatchLagMs()));
        t.put("remainHowManyDataToFlush", Long.toString(Math.max(0, s.writtenPosition() - s.flushedPosition())));
        t.putAll(timerFigures.apply(nowMs));
        for (int level = 1; level <= scheduler.settings().maxLevel(); level++) {
            long max = store.maxOffset(DelayScheduler.SCHEDULE_TOPIC, level - 1);
            t.put("scheduleMessageOffset_" + level, scheduler.offset(level) + "," + max);
        }
        return t;
    }

    /** Store time of the oldest record still in the CommitLog; -1 when it holds none (Apache's convention). */
    private long earliestMessageTimeMs(StoreStats s) {
        if (s.writtenPosition() <= s.minPosition()) {
            return -1;
        }
        Optional<ByteBuffer> first = store.recordAt(s.minPosition());
        if (first.isEmpty()) {
            return -1;
        }
        ByteBuffer record = first.get();
        int at = record.position();
        int sysFlag = record.getInt(at + RecordDescriptor.SYS_FLAG_OFFSET);
        return record.getLong(at + RecordDescriptor.storeTimestampOffset(sysFlag));
    }

    /** Apache's uptime text: {@code [ 0 days, 1 hours, 2 minutes, 3 seconds ]}. */
    static String uptime(long elapsedMs) {
        long seconds = Math.max(0, elapsedMs) / 1000;
        return "[ " + seconds / 86_400 + " days, " + seconds / 3_600 % 24 + " hours, " + seconds / 60 % 60
                + " minutes, " + seconds % 60 + " seconds ]";
    }

    /** {@code key=value} lines, escaped so that {@code java.util.Properties.load} reads back the same strings. */
    static String propertiesText(Map<String, String> entries) {
        StringBuilder sb = new StringBuilder(entries.size() * 32);
        for (Map.Entry<String, String> e : entries.entrySet()) {
            escape(sb, e.getKey(), true);
            sb.append('=');
            escape(sb, e.getValue() == null ? "" : e.getValue(), false);
            sb.append('\n');
        }
        return sb.toString();
    }

    private static void escape(StringBuilder sb, String text, boolean isKey) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\t' -> sb.append("\\t");
                case '\f' -> sb.append("\\f");
                case '=', ':', '#', '!' -> {
                    if (isKey || i == 0) {
                        sb.append('\\');
                    }
                    sb.append(c);
                }
                case ' ' -> {
                    if (isKey || i == 0) {
                        sb.append('\\');
                    }
                    sb.append(c);
                }
                default -> {
                    if (c < 0x20 || c > 0x7E) {
                        sb.append(String.format("\\u%04X", (int) c));
                    } else {
                        sb.append(c);
                    }
                }
            }
        }
    }
}
