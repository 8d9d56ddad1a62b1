package io.sluice.broker.config;

import io.sluice.store.dispatch.DispatchMode;
import io.sluice.broker.auth.AuthenticationStrategy;
import io.sluice.remoting.protocol.body.JsonObjects;
import com.alibaba.fastjson2.JSONException;
import com.alibaba.fastjson2.JSONObject;
import io.sluice.remoting.transport.TlsClientAuth;
import io.sluice.remoting.transport.TlsMode;
import io.sluice.store.dispatch.pipeline.PipelineSettings;
import io.sluice.broker.meta.TopicConfig;
import io.sluice.store.TopicNames;
import io.sluice.broker.meta.TopicPerm;
import io.sluice.store.keyindex.KeyIndexSettings;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * Every broker configuration key, defined once: name, type, default, unit, validation and documentation. Keys that
 * Apache RocketMQ also has keep Apache's name, meaning and default (except where the doc says otherwise), so an
 * Apache {@code broker.conf} that uses only supported features loads unchanged. {@link #describe()} renders the
 * reference table.
 *
 * <p>Stateless; thread-safe.
 */
public final class BrokerConfigKeys {

    private static final int KIB = 1024;
    private static final int MIB = 1024 * KIB;

    // ------------------------------------------------------------------ identity and network

    /** Cluster the broker belongs to. */
    public static final ConfigKey<String> BROKER_CLUSTER_NAME = name("brokerClusterName", "DefaultCluster",
            "Cluster name registered with the name server.");
    /** Broker name: the masters and slaves of one broker group share it. */
    public static final ConfigKey<String> BROKER_NAME = name("brokerName", "broker-a",
            "Broker name registered with the name server and shown in routes. Apache defaults to the host name.");
    /** Broker id: 0 = master, 1 and up = slaves. */
    public static final ConfigKey<Long> BROKER_ID = ConfigKey.ofLong("brokerId", 0L, 0L, Long.MAX_VALUE, "",
            "0 = the master of its broker group (brokerName), 1 and up = a slave. Must agree with brokerRole.");
    /** Replication role. */
    public static final ConfigKey<BrokerRole> BROKER_ROLE = ConfigKey.ofEnum("brokerRole", BrokerRole.class,
            BrokerRole.ASYNC_MASTER, "ASYNC_MASTER: acknowledge a send once stored here; slaves copy it afterwards."
                    + " SYNC_MASTER: acknowledge once a slave has it too (FLUSH_SLAVE_TIMEOUT after syncFlushTimeout,"
                    + " SLAVE_NOT_AVAILABLE when no slave is connected). SLAVE: copy the master's CommitLog, refuse"
                    + " sends.");
    /** HA port of a master. */
    public static final ConfigKey<Integer> HA_LISTEN_PORT = ConfigKey.of("haListenPort", "int", null,
            "(listenPort + 1)", "", "TCP port on which a master serves its slaves, registered with the name server"
                    + " as haServerAddr. Unset: listenPort + 1, as Apache sets it (any free port when listenPort is"
                    + " 0); 0 = any free port.",
            BrokerConfigKeys::parsePort, String::valueOf);
    /** Where a slave finds its master. */
    public static final ConfigKey<String> HA_MASTER_ADDRESS = ConfigKey.of("haMasterAddress", "host:port", "",
            "(from name server)", "", "A slave's master HA address. Empty = the haServerAddr of the master of"
                    + " its brokerName, as the name server answers the slave's registration.",
            BrokerConfigKeys::parseOptionalAddress, s -> s);
    /** Whether consumers may read from a slave. */
    public static final ConfigKey<Boolean> SLAVE_READ_ENABLE = ConfigKey.ofBoolean("slaveReadEnable", false,
            "Let consumers pull from a slave: a slave answers pulls (false: SYSTEM_BUSY), and pull responses suggest"
                    + " the group's whichBrokerWhenConsumeSlowly to a consumer more than 40% of the machine's memory"
                    + " behind the log's end, else the group's brokerId. false: pull responses always suggest the"
                    + " master.");
    /** Controller mode. */
    public static final ConfigKey<Boolean> ENABLE_CONTROLLER_MODE = ConfigKey.ofBoolean("enableControllerMode", false,
            "Automatic failover: the controllers of controllerAddr choose this broker's role. The broker group's"
                    + " master is elected among its in-sync replicas when the master's heartbeat is overdue; brokerId"
                    + " and haMasterAddress come from the controller, and brokerRole names what this broker is when"
                    + " elected (ASYNC_MASTER or SYNC_MASTER; SYNC_MASTER then waits for the in-sync slaves only).");
    /** Where the controllers are. */
    public static final ConfigKey<List<String>> CONTROLLER_ADDR = ConfigKey.of("controllerAddr", "host:port list",
            List.of(), "(none)", "", "Controllers, ';'-separated: name servers with enableControllerInNamesrv or"
                    + " standalone controllers. Required with enableControllerMode.",
            BrokerConfigKeys::parseAddressList, list -> String.join(";", list));
    /** Controller lease. */
    public static final ConfigKey<Long> CONTROLLER_HEART_BEAT_TIMEOUT_MILLS = ConfigKey.ofLong(
            "controllerHeartBeatTimeoutMills", 3_000, 500, 600_000, "ms", "With enableControllerMode: the controller"
                    + " counts this broker dead this long after its last heartbeat, and replaces it if it was the"
                    + " master (Apache's default is 10 s; 3 s keeps failover well under 10 s).");
    /** Controller heartbeat period. */
    public static final ConfigKey<Long> BROKER_HEARTBEAT_INTERVAL = ConfigKey.ofLong("brokerHeartbeatInterval",
            1_000, 100, 60_000, "ms", "With enableControllerMode: period of the heartbeat to the controller, which"
                    + " answers this broker's role, its master and the group's in-sync set.");
    /** In-sync set membership. */
    public static final ConfigKey<Long> HA_MAX_TIME_SLAVE_NOT_CATCHUP = ConfigKey.ofLong("haMaxTimeSlaveNotCatchup",
            15_000, 1_000, 3_600_000, "ms", "With enableControllerMode: a master takes a slave out of the in-sync"
                    + " set (which elections choose from) when it has not caught up with the master's end for this"
                    + " long, and back in once it has.");
    /** Smallest in-sync set a SYNC_MASTER stores sends for. */
    public static final ConfigKey<Integer> MIN_IN_SYNC_REPLICAS = ConfigKey.ofInt("minInSyncReplicas", 1, 1, 64, "",
            "With enableControllerMode and SYNC_MASTER: a send is refused (SYSTEM_ERROR, not stored) while the"
                    + " in-sync set, this master included, has fewer replicas.");
    /** Replicas a SYNC_MASTER's send waits for. */
    public static final ConfigKey<Integer> IN_SYNC_REPLICAS = ConfigKey.ofInt("inSyncReplicas", 1, 1, 64, "",
            "SYNC_MASTER: replicas, this master included, that must have a send before it is acknowledged (always"
                    + " at least one slave: 1 and 2 both wait for one; Apache 5 answers at once with 1). In"
                    + " controller mode only with allAckInSyncStateSet=false.");
    /** Whether a controller-mode SYNC_MASTER waits for every in-sync slave. */
    public static final ConfigKey<Boolean> ALL_ACK_IN_SYNC_STATE_SET = ConfigKey.ofBoolean("allAckInSyncStateSet",
            true, "With enableControllerMode and SYNC_MASTER: a send is acknowledged once every slave of the"
                    + " in-sync set has it (one stopped but still in the set makes sends wait, then"
                    + " FLUSH_SLAVE_TIMEOUT), so the slave the controller elects has every acknowledged message;"
                    + " false: once inSyncReplicas replicas have it. Apache's default is false.");
    /** Name server addresses. */
    public static final ConfigKey<List<String>> NAMESRV_ADDR = ConfigKey.of("namesrvAddr", "host:port list",
            List.of(), "(none)", "",
            "Name servers, ';'-separated (e.g. 10.0.0.1:9876;10.0.0.2:9876). Empty = standalone, no registration.",
            BrokerConfigKeys::parseAddressList, list -> String.join(";", list));
    /** Main listen port. */
    public static final ConfigKey<Integer> LISTEN_PORT = ConfigKey.ofInt("listenPort", 10911, 0, 65535, "",
            "TCP port for clients (0 = any free port, for tests).");
    /** Address the client port binds. */
    public static final ConfigKey<String> BIND_ADDRESS = ConfigKey.of("bindAddress", "IP address", "0.0.0.0",
            "0.0.0.0", "", "IP the client port (listenPort) binds; 0.0.0.0 = every interface, as Apache's"
                    + " NettyServerConfig.bindAddress. bin/sluice standalone binds 127.0.0.1 unless the file sets it.",
            BrokerConfigKeys::parseBindAddress, s -> s);
    /** Advertised IP. */
    public static final ConfigKey<String> BROKER_IP1 = ConfigKey.of("brokerIP1", "IP address", "", "(auto)", "",
            "IP the broker advertises to the name server and stores as STOREHOST. Empty = the first non-loopback"
                    + " address of the host, as Apache picks it.",
            BrokerConfigKeys::parseIpLiteral, s -> s);
    /** Largest accepted frame. */
    public static final ConfigKey<Integer> SERVER_MAX_FRAME_BYTES = ConfigKey.ofInt("serverMaxFrameBytes", 16 * MIB,
            64 * KIB, 1024 * MIB, "bytes",
            "Largest request frame accepted; a larger frame closes the connection. Must exceed maxMessageSize.");
    /** Netty pipeline threads. */
    public static final ConfigKey<Integer> SERVER_WORKER_THREADS = ConfigKey.ofInt("serverWorkerThreads", 8, 1, 256, "",
            "Threads that decode and encode commands.");
    /** Send handler threads. */
    public static final ConfigKey<Integer> SEND_MESSAGE_THREAD_POOL_NUMS = ConfigKey.ofInt("sendMessageThreadPoolNums",
            4, 1, 256, "", "Threads that process send requests (Apache: min(cores, 4)).");
    /** Where send requests run. */
    public static final ConfigKey<Boolean> SEND_ON_IO_THREAD = ConfigKey.ofBoolean("sendOnIoThread", true,
            "Run send requests on the I/O thread that decoded them, with no hand-off to a send thread. false = on"
                    + " sendMessageThreadPoolNums threads, so that a send held up by the disk does not hold up"
                    + " the other connections of its I/O thread (whose heartbeats then wait too).");
    /** Pull handler threads. */
    public static final ConfigKey<Integer> PULL_MESSAGE_THREAD_POOL_NUMS = ConfigKey.ofInt("pullMessageThreadPoolNums",
            16, 1, 1024, "", "Threads that process pull requests, and re-run parked long polls, with"
                    + " pullOnIoThread=false (Apache: 16 + 2 x cores).");
    /** Where pull requests run. */
    public static final ConfigKey<Boolean> PULL_ON_IO_THREAD = ConfigKey.ofBoolean("pullOnIoThread", true,
            "Run pull requests on the I/O thread that decoded them: the response is written by the thread that read"
                    + " the request, with no hand-off to a pull thread and none back. false = on"
                    + " pullMessageThreadPoolNums threads (bounded by pullThreadPoolQueueCapacity), so that a pull"
                    + " reading cold data from disk does not hold up the other connections of its I/O thread."
                    + " A parked long poll is re-run where its pull ran: on its connection's I/O thread, or with"
                    + " false on the pull threads.");
    /** Send queue bound. */
    public static final ConfigKey<Integer> SEND_THREAD_POOL_QUEUE_CAPACITY = ConfigKey.ofInt(
            "sendThreadPoolQueueCapacity", 10_000, 1, 10_000_000, "requests",
            "Send requests waiting for a send thread, across all connections, before new ones are answered"
                    + " SYSTEM_BUSY at once (the Sluice producer retries them, as Apache's 5.3 producer does for"
                    + " synchronous sends). Only with sendOnIoThread=false: on the I/O thread sends never wait in a"
                    + " queue.");
    /** Pull queue bound. */
    public static final ConfigKey<Integer> PULL_THREAD_POOL_QUEUE_CAPACITY = ConfigKey.ofInt(
            "pullThreadPoolQueueCapacity", 100_000, 1, 10_000_000, "requests",
            "Pull requests waiting for a pull thread before new ones are answered SYSTEM_BUSY at once (consumers"
                    + " pull again later); re-runs of parked long polls are not counted. Only with"
                    + " pullOnIoThread=false: on the I/O thread pulls never wait in a queue.");
    /** Registration period. */
    public static final ConfigKey<Integer> REGISTER_BROKER_INTERVAL_MS = ConfigKey.ofInt("registerBrokerIntervalMs",
            30_000, 1_000, 60_000, "ms",
            "Period of the full REGISTER_BROKER to every name server (Apache: registerNameServerPeriod).");
    /** Registration timeout. */
    public static final ConfigKey<Integer> REGISTER_BROKER_TIMEOUT_MS = ConfigKey.ofInt("registerBrokerTimeoutMs",
            24_000, 100, 120_000, "ms", "Timeout of one REGISTER_BROKER call (Apache: registerBrokerTimeoutMills).");
    /** Client channel expiry. */
    public static final ConfigKey<Integer> CLIENT_CHANNEL_EXPIRED_TIMEOUT_MS = ConfigKey.ofInt(
            "clientChannelExpiredTimeoutMs", 120_000, 1_000, 3_600_000, "ms",
            "A producer or consumer connection without heartbeat for this long is dropped from its groups.");
    /** Broker-wide permission. */
    public static final ConfigKey<Integer> BROKER_PERMISSION = ConfigKey.of("brokerPermission", "int",
            TopicPerm.READ_WRITE, null, "bits", "Broker-wide permission bits: 4 READ, 2 WRITE (6 = read-write).",
            raw -> TopicPerm.validate(parseIntValue(raw)), String::valueOf);

    // ------------------------------------------------------------------ storage

    /** Store root. */
    public static final ConfigKey<Path> STORE_PATH_ROOT_DIR = ConfigKey.of("storePathRootDir", "path", null,
            "${user.home}/store", "", "Root of the store: commitlog/, consumequeue/, config/ and the abort,"
                    + " lock and checkpoint files.",
            BrokerConfigKeys::parsePath, Path::toString);
    /** CommitLog directory. */
    public static final ConfigKey<Path> STORE_PATH_COMMIT_LOG = ConfigKey.of("storePathCommitLog", "path", null,
            "${storePathRootDir}/commitlog", "",
            "CommitLog directory. Apache's comma-separated multi-disk list is not supported.",
            BrokerConfigKeys::parseSinglePath, Path::toString);
    /** CommitLog segment size. */
    public static final ConfigKey<Integer> MAPPED_FILE_SIZE_COMMIT_LOG = ConfigKey.ofInt("mappedFileSizeCommitLog",
            128 * MIB, 4 * KIB, Integer.MAX_VALUE, "bytes",
            "Size of one CommitLog file. Must exceed maxMessageSize + 64 KiB (the largest record). A store keeps"
                    + " the size its existing files have. Apache's default is 1 GiB.");
    /** SimpleCQ file size. */
    public static final ConfigKey<Integer> MAPPED_FILE_SIZE_CONSUME_QUEUE = ConfigKey.of("mappedFileSizeConsumeQueue",
            "int", 6_000_000, null, "bytes", "Size of one SimpleCQ file (300,000 slots of 20 bytes); a multiple of 20.",
            raw -> multipleOf(parseIntValue(raw), 20), String::valueOf);
    /** BatchCQ file size (Apache's spelling). */
    public static final ConfigKey<Integer> MAPPER_FILE_SIZE_BATCH_CONSUME_QUEUE = ConfigKey.of(
            "mapperFileSizeBatchConsumeQueue", "int", 13_800_000, null, "bytes",
            "Size of one BatchCQ file (300,000 slots of 46 bytes); a multiple of 46. Apache's spelling.",
            raw -> multipleOf(parseIntValue(raw), 46), String::valueOf);
    /** Shared BatchCQ slots (Sluice only). */
    public static final ConfigKey<Integer> BATCH_CQ_UNIT_MAX_BYTES = ConfigKey.ofInt("batchCqUnitMaxBytes",
            256 * KIB, 0, 64 * MIB, "bytes",
            "BatchCQ: records of one queue that lie back to back in the CommitLog share one slot up to this many"
                    + " bytes. A pull returns at least one whole slot, so a"
                    + " consumer reading a backlog gets up to this much per pull instead of one producer batch,"
                    + " within Apache's rule that the first unit is taken whole. 0 = one slot per record."
                    + " Sluice only.");
    public static final ConfigKey<Integer> BATCH_CQ_SPAN_MAX_BYTES = ConfigKey.ofInt("batchCqSpanMaxBytes",
            4 * MIB, 0, 64 * MIB, "bytes",
            "BatchCQ: a record of a queue also joins its queue's last slot when other queues' records lie between,"
                    + " while the slot covers at most this many CommitLog bytes (and 1024 records) from its first"
                    + " record to its last, within one CommitLog segment, and holds at most 512 messages; a pull skips"
                    + " the other queues' records."
                    + " Producers spread their batches over the queues in turn, so this is what lets a push"
                    + " consumer's pull of a backlog carry several batches. 0 = back to back only. Sluice only.");
    /** Largest message body. */
    public static final ConfigKey<Integer> MAX_MESSAGE_SIZE = ConfigKey.ofInt("maxMessageSize", 4 * MIB, 1, 1024 * MIB,
            "bytes", "Largest message body (a batch body for batch sends); larger sends get MESSAGE_ILLEGAL.");
    /** Flush policy. */
    public static final ConfigKey<FlushDiskType> FLUSH_DISK_TYPE = ConfigKey.ofEnum("flushDiskType",
            FlushDiskType.class, FlushDiskType.ASYNC_FLUSH,
            "ASYNC_FLUSH: acknowledge after the append, flush in the background. SYNC_FLUSH: acknowledge after"
                    + " fsync (group commit).");
    /** Segment pre-allocation (Apache's spelling). */
    public static final ConfigKey<Boolean> WARM_MAPED_FILE_ENABLE = ConfigKey.ofBoolean("warmMapedFileEnable", false,
            "Write zeros through each new CommitLog file before use, so that all its disk blocks exist up front."
                    + " Off (the default, as in Apache): files are sparse and take blocks as records are written;"
                    + " records are written through the file, so a full disk refuses the send (DISK_FULL) either way.");
    /** Zero fill ahead of the CommitLog writer (Sluice only). */
    public static final ConfigKey<Integer> COMMIT_LOG_ZERO_FILL_AHEAD_BYTES = ConfigKey.ofInt(
            "commitLogZeroFillAheadBytes", 128 * MIB, 0, 1024 * MIB, "bytes",
            "Once the writer is within this many bytes of the end of the active CommitLog file, a background"
                    + " thread writes zeros through the next (sparse) file, in step with the writer's progress, so"
                    + " that appends there overwrite allocated pages instead of filling holes. 0 turns it off; not"
                    + " used with warmMapedFileEnable. Sluice only.");
    /** The CommitLog's page-cache footprint (Sluice only). */
    public static final ConfigKey<Long> COMMIT_LOG_PAGE_CACHE_MAX_BYTES = ConfigKey.ofLong(
            "commitLogPageCacheMaxBytes", 4L << 30, 0L, Long.MAX_VALUE, "bytes",
            "The newest this-many bytes of the CommitLog stay in the page cache; a background thread hands the"
                    + " pages of older, flushed bytes back to the kernel, so that new writes reuse them instead of"
                    + " taking free memory. A consumer reading further back reads from the disk. 0 leaves the page"
                    + " cache to the kernel. Linux only. Sluice only.");
    /** CommitLog files kept for reuse (Sluice only). */
    public static final ConfigKey<Integer> COMMIT_LOG_RECYCLED_SEGMENTS = ConfigKey.ofInt(
            "commitLogRecycledSegments", 8, 0, 64, "files",
            "Up to this many CommitLog files that retention removes (unless forced by disk pressure) are renamed and"
                    + " kept, and reused as new CommitLog files once no reader holds them: a reused file keeps its"
                    + " disk blocks and its cached pages, so writing it costs less than filling a new one. Kept files"
                    + " still count as used disk space. 0 deletes every removed file. Sluice only.");
    /** Async flush period. */
    public static final ConfigKey<Integer> FLUSH_INTERVAL_COMMIT_LOG = ConfigKey.ofInt("flushIntervalCommitLog", 500, 1,
            60_000, "ms", "Period of the background CommitLog flush under ASYNC_FLUSH.");
    /** Index flush period. */
    public static final ConfigKey<Integer> FLUSH_INTERVAL_CONSUME_QUEUE = ConfigKey.ofInt("flushIntervalConsumeQueue",
            1_000, 1, 60_000, "ms", "Period of the consume-queue flush.");
    public static final ConfigKey<Integer> FLUSH_INTERVAL_KEY_INDEX = ConfigKey.ofInt("flushIntervalKeyIndex",
            10_000, 1, 600_000, "ms",
            "Period of the key index's flush (force of its newest file, then its checkpoint): after a crash the"
                    + " CommitLog is indexed again from the last one. Keys land in random pages of a mapped file,"
                    + " and each force write-protects every page it cleans, so the next key in each faults again:"
                    + " a short period costs CPU on every core. Sluice only.");
    /** Sync flush deadline. */
    public static final ConfigKey<Long> SYNC_FLUSH_TIMEOUT = ConfigKey.ofLong("syncFlushTimeout", 5_000, 1, 600_000,
            "ms", "Under SYNC_FLUSH, a put not fsynced within this time is answered FLUSH_DISK_TIMEOUT; under"
                    + " SYNC_MASTER, one the slaves it needs have not acknowledged, FLUSH_SLAVE_TIMEOUT.");
    /** Dispatch mode. */
    public static final ConfigKey<DispatchMode> DISPATCH_MODE = ConfigKey.of("dispatchMode", "enum",
            DispatchMode.PIPELINED, null, "",
            "How index entries are built from the CommitLog: pipelined | serial.",
            DispatchMode::fromConfig, DispatchMode::configValue);
    /** Pipelined dispatch: chunk size. */
    public static final ConfigKey<Integer> DISPATCH_CHUNK_BYTES = ConfigKey.ofInt("dispatchChunkBytes",
            PipelineSettings.DEFAULT_CHUNK_BYTES, 4 * KIB, PipelineSettings.MAX_CHUNK_BYTES, "bytes",
            "Pipelined dispatch: the CommitLog is cut into chunks of about this size, which parse workers decode in"
                    + " parallel.");
    /** Pipelined dispatch: records per chunk. */
    public static final ConfigKey<Integer> DISPATCH_MAX_RECORDS_PER_CHUNK = ConfigKey.ofInt(
            "dispatchMaxRecordsPerChunk", PipelineSettings.DEFAULT_MAX_RECORDS_PER_CHUNK, 1,
            PipelineSettings.MAX_RECORDS_PER_CHUNK_LIMIT, "records",
            "Pipelined dispatch: a chunk holds at most this many records (bounds the decoded entries in memory,"
                    + " about 60 bytes each).");
    /** Pipelined dispatch: parse workers. */
    public static final ConfigKey<Integer> DISPATCH_PARSE_THREADS = ConfigKey.ofInt("dispatchParseThreads", 0, 0,
            PipelineSettings.MAX_PARSE_THREADS, "threads",
            "Pipelined dispatch: parse workers; 0 = one per available processor.");
    /** Pipelined dispatch: chunks in flight. */
    public static final ConfigKey<Integer> DISPATCH_RING_SLOTS = ConfigKey.ofInt("dispatchRingSlots",
            PipelineSettings.DEFAULT_RING_SLOTS, 1, PipelineSettings.MAX_RING_SLOTS, "chunks",
            "Pipelined dispatch: chunks in flight between the reader and the consume-queue writer; the reader waits"
                    + " when this many are not yet written.");
    /** Pipelined dispatch: the reader's own chunks. */
    public static final ConfigKey<Integer> DISPATCH_INLINE_MAX_BYTES = ConfigKey.ofInt("dispatchInlineMaxBytes",
            PipelineSettings.DEFAULT_INLINE_MAX_BYTES, 0, PipelineSettings.MAX_CHUNK_BYTES, "bytes",
            "Pipelined dispatch: while the pipeline is idle, the reader indexes a chunk up to this size itself,"
                    + " sparing a trickle of messages two thread hand-offs; 0 = never.");
    /** Pipelined dispatch: appenders index their own small tails. */
    public static final ConfigKey<Boolean> DISPATCH_APPENDER_ASSIST = ConfigKey.ofBoolean("dispatchAppenderAssist",
            true, "Pipelined dispatch: while the pipeline is idle, the thread that appended a send indexes it"
                    + " itself (up to dispatchInlineMaxBytes) instead of waking the reader thread.");
    /** Key index on or off (Apache's key). */
    public static final ConfigKey<Boolean> MESSAGE_INDEX_ENABLE = ConfigKey.ofBoolean("messageIndexEnable", true,
            "Index message keys and unique keys (KEYS, UNIQ_KEY), so that queries by key (mqadmin queryMsgByKey,"
                    + " queryMsgByUniqueKey, queryMsgTraceById) find messages; off, they find none.");
    /** Key index: slots per file (Apache's key). */
    public static final ConfigKey<Integer> MAX_HASH_SLOT_NUM = ConfigKey.ofInt("maxHashSlotNum",
            KeyIndexSettings.DEFAULT_HASH_SLOTS_PER_FILE, 1, 50_000_000, "",
            "Hash slots of a new key-index file (4 bytes each).");
    /** Key index: entries per file (Apache's key). */
    public static final ConfigKey<Integer> MAX_INDEX_NUM = ConfigKey.ofInt("maxIndexNum",
            KeyIndexSettings.DEFAULT_ENTRIES_PER_FILE, 128, 60_000_000, "",
            "Keys a key-index file holds (24 bytes each) before the next file is started.");
    /** Deletion hours. */
    public static final ConfigKey<List<Integer>> DELETE_WHEN = ConfigKey.of("deleteWhen", "hour list", List.of(4),
            null, "hour of day",
            "Local hours (00-23) at which expired CommitLog files are deleted; ';'-separated list, e.g. 04;05.",
            BrokerConfigKeys::parseHours, BrokerConfigKeys::formatHours);
    /** Retention. */
    public static final ConfigKey<Integer> FILE_RESERVED_TIME = ConfigKey.ofInt("fileReservedTime", 72, 1, 87_600,
            "hours", "A CommitLog file last written longer ago than this may be deleted.");
    /** Disk use that triggers deletion. */
    public static final ConfigKey<Integer> DISK_MAX_USED_SPACE_RATIO = ConfigKey.ofInt("diskMaxUsedSpaceRatio", 75, 10,
            95, "%", "Above this disk use, expired files and files every consumer group has read are deleted at any"
                    + " hour.");
    /** Disk use that stops writes. */
    public static final ConfigKey<Integer> DISK_SPACE_WARNING_LEVEL_RATIO = ConfigKey.ofInt(
            "diskSpaceWarningLevelRatio", 90, 35, 90, "%",
            "Above this disk use, sends are refused (DISK_FULL) and files are deleted immediately."
                    + " Enforced between checks too: appends get a byte budget below this ratio, renewed every"
                    + " second.");
    /** Disk use that forces deletion. */
    public static final ConfigKey<Integer> DISK_SPACE_CLEAN_FORCIBLY_RATIO = ConfigKey.ofInt(
            "diskSpaceCleanForciblyRatio", 85, 30, 85, "%",
            "Above this disk use, the oldest files are deleted even if not yet expired (with"
                    + " cleanFileForciblyEnable).");
    /** Forced deletion switch. */
    public static final ConfigKey<Boolean> CLEAN_FILE_FORCIBLY_ENABLE = ConfigKey.ofBoolean("cleanFileForciblyEnable",
            false, "Allow deleting unexpired files that consumer groups have not read when the disk is above"
                    + " diskSpaceCleanForciblyRatio (logged at WARN with the groups, queues and offsets lost). Off by"
                    + " default, unlike Apache: an acknowledged message is never dropped for disk space; sends are"
                    + " refused (DISK_FULL) instead, as Kafka does. Never deletes pending timers or unresolved half"
                    + " messages. Such deletions wait while files deleted earlier still hold their disk blocks.");
    /** Retention check period. */
    public static final ConfigKey<Integer> CLEAN_RESOURCE_INTERVAL = ConfigKey.ofInt("cleanResourceInterval", 10_000,
            100, 3_600_000, "ms", "Period of the retention check.");
    /** Grace before an unmapped file is destroyed (Apache's spelling). */
    public static final ConfigKey<Integer> DESTROY_MAPED_FILE_INTERVAL_FORCIBLY = ConfigKey.ofInt(
            "destroyMapedFileIntervalForcibly", 120_000, 0, 3_600_000, "ms",
            "Accepted for Apache compatibility and not used: Sluice never unmaps a file readers may still use; a"
                    + " deleted file's blocks come back when the JVM collects its mapping. Apache's spelling.");

    // ------------------------------------------------------------------ topics, groups, consumers

    /** Auto-create from TBW102. */
    public static final ConfigKey<Boolean> AUTO_CREATE_TOPIC_ENABLE = ConfigKey.ofBoolean("autoCreateTopicEnable",
            false, "Register TBW102 so that producers may create topics by sending to them (Apache default: true).");
    /** Auto-create groups on heartbeat. */
    public static final ConfigKey<Boolean> AUTO_CREATE_SUBSCRIPTION_GROUP = ConfigKey.ofBoolean(
            "autoCreateSubscriptionGroup", true, "Create a consumer group with defaults on its first heartbeat.");
    /** Queues of auto-created topics. */
    public static final ConfigKey<Integer> DEFAULT_TOPIC_QUEUE_NUMS = ConfigKey.ofInt("defaultTopicQueueNums", 8, 1,
            TopicConfig.MAX_QUEUE_NUMS, "queues", "Read and write queues of TBW102, hence of auto-created topics.");
    /** Offset flush period. */
    public static final ConfigKey<Integer> FLUSH_CONSUMER_OFFSET_INTERVAL = ConfigKey.ofInt(
            "flushConsumerOffsetInterval", 5_000, 100, 600_000, "ms",
            "Period at which committed consumer offsets are made durable against power loss.");
    /** Long polling switch. */
    public static final ConfigKey<Boolean> LONG_POLLING_ENABLE = ConfigKey.ofBoolean("longPollingEnable", true,
            "Park pulls that find nothing until a message arrives or the client's suspend time passes.");
    /** Short polling park time. */
    public static final ConfigKey<Long> SHORT_POLLING_TIME_MILLS = ConfigKey.ofLong("shortPollingTimeMills", 1_000, 1,
            60_000, "ms", "With longPollingEnable=false, pulls that find nothing are parked this long.");
    /** Cap on the client's suspend time. */
    public static final ConfigKey<Long> LONG_POLLING_SUSPEND_MAX_MS = ConfigKey.ofLong("longPollingSuspendMaxMs",
            25_000, 1, 600_000, "ms", "Upper bound on a parked pull's suspend time (the client asks for 15 s and"
                    + " times out after 30 s).");
    /** Bytes per pull response. */
    public static final ConfigKey<Integer> MAX_TRANSFER_BYTES_ON_MESSAGE_IN_MEMORY = ConfigKey.ofInt(
            "maxTransferBytesOnMessageInMemory", 256 * KIB, 1, 1024 * MIB, "bytes",
            "A pull response stops adding messages beyond this many bytes.");
    /** Messages per pull response. */
    public static final ConfigKey<Integer> MAX_TRANSFER_COUNT_ON_MESSAGE_IN_MEMORY = ConfigKey.ofInt(
            "maxTransferCountOnMessageInMemory", 1024, 1, 100_000, "messages",
            "A pull response carries at most this many messages, or fewer when the client asks for fewer (Apache's"
                    + " push consumer asks for 32); a batch counts as its messages, and the first is returned whole.");
    /** Delay levels. */
    public static final ConfigKey<List<Long>> MESSAGE_DELAY_LEVEL = ConfigKey.of("messageDelayLevel",
            "duration list", List.of(1_000L, 5_000L, 10_000L, 30_000L, 60_000L, 120_000L, 180_000L, 240_000L,
                    300_000L, 360_000L, 420_000L, 480_000L, 540_000L, 600_000L, 1_200_000L, 1_800_000L, 3_600_000L,
                    7_200_000L),
            "1s 5s 10s 30s 1m 2m 3m 4m 5m 6m 7m 8m 9m 10m 20m 30m 1h 2h", "",
            "Delay of each delay level 1..N, space-separated, units s m h d. Retries use level 3 + reconsumeTimes.",
            BrokerConfigKeys::parseDelayLevels, BrokerConfigKeys::formatDelayLevels);

    /** Age of an unresolved half message before the broker asks its producer. */
    public static final ConfigKey<Long> TRANSACTION_TIME_OUT = ConfigKey.ofLong("transactionTimeOut", 6_000, 1,
            86_400_000, "ms", "A transactional half message neither committed nor rolled back this long after it"
                    + " was stored is checked back: CHECK_TRANSACTION_STATE goes to a live connection of its"
                    + " producer group. A message's CHECK_IMMUNITY_TIME_IN_SECONDS, when longer, applies instead.");
    /** Period of the transaction check. */
    public static final ConfigKey<Long> TRANSACTION_CHECK_INTERVAL = ConfigKey.ofLong("transactionCheckInterval",
            30_000, 10, 86_400_000, "ms", "Period of the check of unresolved half messages.");
    /** Checks before a half message is given up. */
    public static final ConfigKey<Integer> TRANSACTION_CHECK_MAX = ConfigKey.ofInt("transactionCheckMax", 15, 1,
            10_000, "checks", "A half message still unresolved after this many checks is moved to"
                    + " TRANS_CHECK_MAX_TIME_TOPIC and never delivered.");

    /** Whether timer messages are served. */
    public static final ConfigKey<Boolean> TIMER_WHEEL_ENABLE = ConfigKey.ofBoolean("timerWheelEnable", true,
            "Serve timer messages (TIMER_DELIVER_MS, TIMER_DELAY_SEC, TIMER_DELAY_MS): each waits in"
                    + " rmq_sys_wheel_timer until due, then is stored in its topic. false: they are refused"
                    + " (MESSAGE_ILLEGAL).");
    /** Granularity of timer delivery. */
    public static final ConfigKey<Long> TIMER_PRECISION_MS = ConfigKey.ofLong("timerPrecisionMs", 1_000, 10,
            60_000, "ms", "A timer message is delivered at most this long after its time (under normal load): the"
                    + " timer thread wakes at least this often, and earlier for a nearer timer.");
    /** Longest timer delay. */
    public static final ConfigKey<Long> TIMER_MAX_DELAY_SEC = ConfigKey.ofLong("timerMaxDelaySec", 259_200, 1,
            315_360_000, "s", "A timer message due more than this long after it arrives is refused"
                    + " (MESSAGE_ILLEGAL).");

    // ------------------------------------------------------------------ TLS (Apache's system-property names)

    /** TLS on the client port and the HA port. */
    public static final ConfigKey<String> TLS_SERVER_MODE = ConfigKey.of("tls.server.mode", "enum", "disabled", null,
            "", "On the client port and the HA port (haListenPort): disabled: plain connections only;"
                    + " permissive: TLS and plain on the one port, told apart by a client's first bytes; enforcing:"
                    + " TLS only. Apache's default is permissive with a generated"
                    + " certificate; Sluice needs tls.server.certPath and tls.server.keyPath for TLS. Changed"
                    + " certificate files are loaded for new connections, checked at each accept.",
            raw -> TlsMode.parse(raw).text(), s -> s);
    /** Server certificate chain. */
    public static final ConfigKey<String> TLS_SERVER_CERT_PATH = optionalPath("tls.server.certPath",
            "PEM certificate chain of the broker's TLS port.");
    /** Server private key. */
    public static final ConfigKey<String> TLS_SERVER_KEY_PATH = optionalPath("tls.server.keyPath",
            "PEM private key (PKCS#8) of the broker's TLS port.");
    /** Password of the server key. */
    public static final ConfigKey<String> TLS_SERVER_KEY_PASSWORD = ConfigKey.of("tls.server.keyPassword", "text", "",
            "(none)", "", "Password of an encrypted tls.server.keyPath; empty for an unencrypted key.", s -> s,
            s -> s);
    /** Certificates client certificates must chain to. */
    public static final ConfigKey<String> TLS_SERVER_TRUST_CERT_PATH = optionalPath("tls.server.trustCertPath",
            "PEM certificates a client certificate must chain to; needed unless tls.server.need.client.auth=none.");
    /** Client certificates. */
    public static final ConfigKey<String> TLS_SERVER_NEED_CLIENT_AUTH = ConfigKey.of("tls.server.need.client.auth",
            "enum", "none", null, "", "none: no client certificate is asked for; optional: checked when sent;"
                    + " require: a client without a trusted certificate is refused in the handshake.",
            raw -> TlsClientAuth.parse(raw).text(), s -> s);
    /** TLS towards the name servers. */
    public static final ConfigKey<Boolean> TLS_ENABLE = ConfigKey.ofBoolean("tls.enable", false,
            "The broker's own connections use TLS: to the name servers (for a name server in enforcing mode) and,"
                    + " on a slave, to its master (client port and HA port).");
    /** Certificates the servers' certificates must chain to. */
    public static final ConfigKey<String> TLS_CLIENT_TRUST_CERT_PATH = optionalPath("tls.client.trustCertPath",
            "With tls.enable: PEM certificates the name servers' and the master's certificates must chain to;"
                    + " empty = any certificate is accepted (Apache's test mode: encrypted, the server not"
                    + " authenticated).");
    /** The broker's client certificate. */
    public static final ConfigKey<String> TLS_CLIENT_CERT_PATH = optionalPath("tls.client.certPath",
            "With tls.enable: PEM certificate chain the broker presents when a server asks for a client"
                    + " certificate (a master with tls.server.need.client.auth=require); with tls.client.keyPath.");
    /** The private key of the broker's client certificate. */
    public static final ConfigKey<String> TLS_CLIENT_KEY_PATH = optionalPath("tls.client.keyPath",
            "With tls.enable: PEM private key (PKCS#8) of tls.client.certPath.");
    /** Password of the client key. */
    public static final ConfigKey<String> TLS_CLIENT_KEY_PASSWORD = ConfigKey.of("tls.client.keyPassword", "text",
            "", "(none)", "", "Password of an encrypted tls.client.keyPath; empty for an unencrypted key.", s -> s,
            s -> s);

    // ------------------------------------------------------------------ access control (Apache's ACL 2.0 keys)

    /** Requests must be signed. */
    public static final ConfigKey<Boolean> AUTHENTICATION_ENABLED = ConfigKey.ofBoolean("authenticationEnabled", false,
            "Every request must carry AccessKey and a Signature made with that user's secret (the Apache client's"
                    + " AclClientRPCHook); others are refused NO_PERMISSION. Users and policies live in"
                    + " <storePathRootDir>/config/auth.json.");
    /** When signatures are verified (Apache's key and strategies). */
    public static final ConfigKey<AuthenticationStrategy> AUTHENTICATION_STRATEGY = ConfigKey.of(
            "authenticationStrategy", "enum", AuthenticationStrategy.STATELESS, null, "", "stateless: every request's"
                    + " Signature is verified. stateful: a connection's first request from a user is verified, and"
                    + " that user's later requests on the same connection pass unverified for"
                    + " statefulAuthenticationCacheExpiredSecond (sparing the HMAC over every body; use it with TLS,"
                    + " since a request injected into the connection would pass). Apache's class names"
                    + " (...StatelessAuthenticationStrategy, ...StatefulAuthenticationStrategy) are accepted.",
            AuthenticationStrategy::parse, AuthenticationStrategy::text);
    /** How long a stateful verification counts. */
    public static final ConfigKey<Integer> STATEFUL_AUTHENTICATION_CACHE_EXPIRED_SECOND = ConfigKey.ofInt(
            "statefulAuthenticationCacheExpiredSecond", 60, 1, 86_400, "s",
            "With authenticationStrategy=stateful: how long a connection's verified signature stands for its user's"
                    + " later requests; a user whose secret changes must sign anew at once.");
    /** Connections a stateful verification is remembered for. */
    public static final ConfigKey<Integer> STATEFUL_AUTHENTICATION_CACHE_MAX_NUM = ConfigKey.ofInt(
            "statefulAuthenticationCacheMaxNum", 10_000, 1, 10_000_000, "connections",
            "With authenticationStrategy=stateful: connections remembered at most; beyond it, requests of new"
                    + " connections are verified one by one until older entries expire.");
    /** Requests must be permitted. */
    public static final ConfigKey<Boolean> AUTHORIZATION_ENABLED = ConfigKey.ofBoolean("authorizationEnabled", false,
            "Every request's user must be a super user or hold a policy entry allowing the request's action on its"
                    + " resource (Topic:, Group:, Cluster:); others are refused NO_PERMISSION. Without"
                    + " authenticationEnabled the AccessKey is not verified, as in Apache.");
    /** Initial user. */
    public static final ConfigKey<String> INIT_AUTHENTICATION_USER = ConfigKey.of("initAuthenticationUser", "JSON", "",
            "(none)", "", "A super user created at start when no user of that name exists, so a new cluster is not"
                    + " locked out: {\"username\":\"admin\",\"password\":\"secret\"}.",
            BrokerConfigKeys::parseInitUser, s -> s);
    /** The broker's own credentials, towards name servers, its master and controllers. */
    public static final ConfigKey<String> INNER_CLIENT_AUTHENTICATION_CREDENTIALS = ConfigKey.of(
            "innerClientAuthenticationCredentials", "JSON", "", "(none)", "", "The broker signs its own requests"
                    + " (registration with the name servers, a slave's metadata sync with its master, controller"
                    + " calls) with these: {\"accessKey\":\"broker\",\"secretKey\":\"secret\"}. With"
                    + " authenticationEnabled they are also a super user of this broker (created when absent), so"
                    + " brokers given the same value accept each other.",
            BrokerConfigKeys::parseInnerCredentials, s -> s);
    /** Metrics exporter (Apache's key; PROM only). */
    public static final ConfigKey<MetricsExporterType> METRICS_EXPORTER_TYPE = ConfigKey.ofEnum("metricsExporterType",
            MetricsExporterType.class, MetricsExporterType.DISABLE,
            "DISABLE: no metrics endpoint. PROM: Prometheus text at http://metricsPromExporterHost:"
                    + "metricsPromExporterPort/metrics (distribution/src/docs/metrics.md lists every metric).");
    /** Prometheus endpoint port. */
    public static final ConfigKey<Integer> METRICS_PROM_EXPORTER_PORT = ConfigKey.ofInt("metricsPromExporterPort",
            5557, 0, 65535, "", "TCP port of the Prometheus endpoint (0 = any free port, for tests).");
    /** Prometheus endpoint address. */
    public static final ConfigKey<String> METRICS_PROM_EXPORTER_HOST = ConfigKey.of("metricsPromExporterHost",
            "IP address", "", "(brokerIP1)", "", "IP the Prometheus endpoint binds. Empty = brokerIP1 (as Apache"
                    + " does), or the loopback address when brokerIP1 is empty too.",
            BrokerConfigKeys::parseIpLiteral, s -> s);

    private static final List<ConfigKey<?>> ALL = List.of(
            BROKER_CLUSTER_NAME, BROKER_NAME, BROKER_ID, BROKER_ROLE, HA_LISTEN_PORT, HA_MASTER_ADDRESS,
            SLAVE_READ_ENABLE, ENABLE_CONTROLLER_MODE, CONTROLLER_ADDR, CONTROLLER_HEART_BEAT_TIMEOUT_MILLS,
            BROKER_HEARTBEAT_INTERVAL, HA_MAX_TIME_SLAVE_NOT_CATCHUP, MIN_IN_SYNC_REPLICAS, IN_SYNC_REPLICAS,
            ALL_ACK_IN_SYNC_STATE_SET, NAMESRV_ADDR, LISTEN_PORT,
            BIND_ADDRESS,
            BROKER_IP1,
            SERVER_MAX_FRAME_BYTES, SERVER_WORKER_THREADS, SEND_MESSAGE_THREAD_POOL_NUMS, SEND_ON_IO_THREAD,
            PULL_MESSAGE_THREAD_POOL_NUMS, PULL_ON_IO_THREAD,
            SEND_THREAD_POOL_QUEUE_CAPACITY, PULL_THREAD_POOL_QUEUE_CAPACITY, REGISTER_BROKER_INTERVAL_MS,
            REGISTER_BROKER_TIMEOUT_MS, CLIENT_CHANNEL_EXPIRED_TIMEOUT_MS, BROKER_PERMISSION,
            STORE_PATH_ROOT_DIR, STORE_PATH_COMMIT_LOG, MAPPED_FILE_SIZE_COMMIT_LOG, MAPPED_FILE_SIZE_CONSUME_QUEUE,
            MAPPER_FILE_SIZE_BATCH_CONSUME_QUEUE, BATCH_CQ_UNIT_MAX_BYTES, BATCH_CQ_SPAN_MAX_BYTES,
            MAX_MESSAGE_SIZE, FLUSH_DISK_TYPE,
            WARM_MAPED_FILE_ENABLE, COMMIT_LOG_ZERO_FILL_AHEAD_BYTES, COMMIT_LOG_PAGE_CACHE_MAX_BYTES,
            COMMIT_LOG_RECYCLED_SEGMENTS,
            FLUSH_INTERVAL_COMMIT_LOG,
            FLUSH_INTERVAL_CONSUME_QUEUE, FLUSH_INTERVAL_KEY_INDEX, SYNC_FLUSH_TIMEOUT, DISPATCH_MODE,
            DISPATCH_CHUNK_BYTES,
            DISPATCH_MAX_RECORDS_PER_CHUNK, DISPATCH_PARSE_THREADS, DISPATCH_RING_SLOTS, DISPATCH_INLINE_MAX_BYTES,
            DISPATCH_APPENDER_ASSIST, MESSAGE_INDEX_ENABLE, MAX_HASH_SLOT_NUM, MAX_INDEX_NUM, DELETE_WHEN,
            FILE_RESERVED_TIME,
            DISK_MAX_USED_SPACE_RATIO, DISK_SPACE_WARNING_LEVEL_RATIO, DISK_SPACE_CLEAN_FORCIBLY_RATIO,
            CLEAN_FILE_FORCIBLY_ENABLE, CLEAN_RESOURCE_INTERVAL, DESTROY_MAPED_FILE_INTERVAL_FORCIBLY,
            AUTO_CREATE_TOPIC_ENABLE, AUTO_CREATE_SUBSCRIPTION_GROUP, DEFAULT_TOPIC_QUEUE_NUMS,
            FLUSH_CONSUMER_OFFSET_INTERVAL, LONG_POLLING_ENABLE, SHORT_POLLING_TIME_MILLS, LONG_POLLING_SUSPEND_MAX_MS,
            MAX_TRANSFER_BYTES_ON_MESSAGE_IN_MEMORY, MAX_TRANSFER_COUNT_ON_MESSAGE_IN_MEMORY, MESSAGE_DELAY_LEVEL,
            TRANSACTION_TIME_OUT, TRANSACTION_CHECK_INTERVAL, TRANSACTION_CHECK_MAX, TIMER_WHEEL_ENABLE,
            TIMER_PRECISION_MS, TIMER_MAX_DELAY_SEC, TLS_SERVER_MODE, TLS_SERVER_CERT_PATH, TLS_SERVER_KEY_PATH,
            TLS_SERVER_KEY_PASSWORD, TLS_SERVER_TRUST_CERT_PATH, TLS_SERVER_NEED_CLIENT_AUTH, TLS_ENABLE,
            TLS_CLIENT_TRUST_CERT_PATH, TLS_CLIENT_CERT_PATH, TLS_CLIENT_KEY_PATH, TLS_CLIENT_KEY_PASSWORD,
            AUTHENTICATION_ENABLED, AUTHENTICATION_STRATEGY,
            STATEFUL_AUTHENTICATION_CACHE_EXPIRED_SECOND, STATEFUL_AUTHENTICATION_CACHE_MAX_NUM, AUTHORIZATION_ENABLED,
            INIT_AUTHENTICATION_USER,
            INNER_CLIENT_AUTHENTICATION_CREDENTIALS,
            METRICS_EXPORTER_TYPE, METRICS_PROM_EXPORTER_PORT, METRICS_PROM_EXPORTER_HOST);

    /** Keys whose values hold a secret: never sent to a client (GET_BROKER_CONFIG answers them masked). */
    public static final Set<String> SECRET_KEYS = Set.of(TLS_SERVER_KEY_PASSWORD.name(),
            TLS_CLIENT_KEY_PASSWORD.name(), INIT_AUTHENTICATION_USER.name(),
            INNER_CLIENT_AUTHENTICATION_CREDENTIALS.name());

    private static final Map<String, ConfigKey<?>> BY_NAME = index(ALL);

    private static final Pattern IPV4 = Pattern.compile(
            "((25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)\\.){3}(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)");
    private static final Pattern IPV6 = Pattern.compile("[0-9a-fA-F:][0-9a-fA-F.]*:[0-9a-fA-F:.]*");
    private static final Pattern HOST = Pattern.compile("[A-Za-z0-9]([A-Za-z0-9.-]*[A-Za-z0-9])?");

    private BrokerConfigKeys() {
    }

    /** Every key, in documentation order. */
    public static List<ConfigKey<?>> all() {
        return ALL;
    }

    /** The key called {@code name} (case-sensitive, as Apache's keys are), or empty. */
    public static Optional<ConfigKey<?>> find(String name) {
        return Optional.ofNullable(BY_NAME.get(name));
    }

    /** The reference table of every key, as Markdown. */
    public static String describe() {
        StringBuilder md = new StringBuilder();
        md.append("| Key | Type | Default | Unit | Description |\n");
        md.append("|---|---|---|---|---|\n");
        for (ConfigKey<?> key : ALL) {
            md.append("| `").append(key.name()).append("` | ").append(escape(key.typeName())).append(" | `")
                    .append(escape(key.defaultDoc())).append("` | ").append(escape(key.unit())).append(" | ")
                    .append(escape(key.doc())).append(" |\n");
        }
        return md.toString();
    }

    // ------------------------------------------------------------------ parsers

    private static ConfigKey<String> name(String key, String defaultValue, String doc) {
        return ConfigKey.of(key, "name", defaultValue, null, "", doc + " Characters [%|a-zA-Z0-9_-], at most 127.",
                raw -> {
                    if (!TopicNames.isValid(raw)) {
                        throw new IllegalArgumentException("expected 1..127 characters of [%|a-zA-Z0-9_-]");
                    }
                    return raw;
                }, s -> s);
    }

    private static ConfigKey<String> optionalPath(String key, String doc) {
        return ConfigKey.of(key, "path", "", "(none)", "", doc, raw -> raw.isEmpty() ? raw : parsePath(raw).toString(),
                s -> s);
    }

    private static String parseInnerCredentials(String raw) {
        if (raw.isEmpty()) {
            return raw;
        }
        String expected = "expected {\"accessKey\":\"...\",\"secretKey\":\"...\"}";
        JSONObject credentials;
        try {
            credentials = JsonObjects.parse(raw);
        } catch (JSONException e) {
            throw new IllegalArgumentException(expected + ": " + e.getMessage(), e);
        }
        if (credentials == null || isBlank(credentials.getString("accessKey"))
                || isBlank(credentials.getString("secretKey"))) {
            throw new IllegalArgumentException(expected + " with both set");
        }
        return raw;
    }

    private static String parseInitUser(String raw) {
        if (raw.isEmpty()) {
            return raw;
        }
        JSONObject user;
        try {
            user = JsonObjects.parse(raw);
        } catch (JSONException e) {
            throw new IllegalArgumentException("expected {\"username\":\"...\",\"password\":\"...\"}: "
                    + e.getMessage(), e);
        }
        if (user == null || isBlank(user.getString("username")) || isBlank(user.getString("password"))) {
            throw new IllegalArgumentException("expected {\"username\":\"...\",\"password\":\"...\"} with both set");
        }
        return raw;
    }

    private static boolean isBlank(String value) {
        return value == null || value.isBlank();
    }

    private static String parseOptionalAddress(String raw) {
        if (raw.isEmpty()) {
            return raw;
        }
        List<String> one = parseAddressList(raw);
        if (one.size() != 1) {
            throw new IllegalArgumentException("expected one host:port");
        }
        return one.get(0);
    }

    private static int parsePort(String raw) {
        int port = parseIntValue(raw);
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("expected a port in 0..65535");
        }
        return port;
    }

    private static int parseIntValue(String raw) {
        try {
            return Integer.parseInt(raw);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("not an integer", e);
        }
    }

    private static int multipleOf(int value, int unitBytes) {
        if (value < unitBytes || value % unitBytes != 0) {
            throw new IllegalArgumentException("must be a positive multiple of " + unitBytes);
        }
        return value;
    }

    private static List<String> parseAddressList(String raw) {
        List<String> addresses = new ArrayList<>();
        if (raw.isEmpty()) {
            return List.of();
        }
        for (String part : raw.split(";", -1)) {
            String address = part.trim();
            int colon = address.lastIndexOf(':');
            if (colon <= 0 || !HOST.matcher(address.substring(0, colon)).matches()) {
                throw new IllegalArgumentException("'" + address + "' is not host:port");
            }
            int port;
            try {
                port = Integer.parseInt(address.substring(colon + 1));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("'" + address + "' has a non-numeric port", e);
            }
            if (port < 1 || port > 65535) {
                throw new IllegalArgumentException("'" + address + "' has port out of range 1..65535");
            }
            addresses.add(address);
        }
        return List.copyOf(addresses);
    }

    /** An IP literal; empty means every interface. */
    private static String parseBindAddress(String raw) {
        String ip = parseIpLiteral(raw);
        return ip.isEmpty() ? "0.0.0.0" : ip;
    }

    private static String parseIpLiteral(String raw) {
        if (raw.isEmpty() || IPV4.matcher(raw).matches()) {
            return raw;
        }
        if (IPV6.matcher(raw).matches()) {
            try {
                // A string that starts with a hex digit or ':' and contains ':' is parsed as an IPv6 literal,
                // never looked up in DNS.
                InetAddress.getByName(raw);
                return raw;
            } catch (UnknownHostException e) {
                throw new IllegalArgumentException("not a valid IPv6 address", e);
            }
        }
        throw new IllegalArgumentException("expected an IPv4 or IPv6 address literal (or empty for automatic)");
    }

    private static Path parsePath(String raw) {
        if (raw.isEmpty()) {
            throw new IllegalArgumentException("path must not be empty");
        }
        try {
            return Path.of(raw);
        } catch (InvalidPathException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
    }

    private static Path parseSinglePath(String raw) {
        if (raw.indexOf(',') >= 0) {
            throw new IllegalArgumentException("multiple CommitLog paths are not supported");
        }
        return parsePath(raw);
    }

    private static List<Integer> parseHours(String raw) {
        TreeSet<Integer> hours = new TreeSet<>();
        for (String part : raw.split(";", -1)) {
            String hour = part.trim();
            if (!hour.matches("\\d{1,2}")) {
                throw new IllegalArgumentException("'" + hour + "' is not an hour 00..23");
            }
            int h = Integer.parseInt(hour);
            if (h > 23) {
                throw new IllegalArgumentException("'" + hour + "' is not an hour 00..23");
            }
            hours.add(h);
        }
        return List.copyOf(hours);
    }

    private static String formatHours(List<Integer> hours) {
        StringBuilder s = new StringBuilder();
        for (int h : hours) {
            s.append(s.length() == 0 ? "" : ";").append(String.format(Locale.ROOT, "%02d", h));
        }
        return s.toString();
    }

    private static List<Long> parseDelayLevels(String raw) {
        List<Long> levels = new ArrayList<>();
        for (String part : raw.split("\\s+")) {
            if (part.length() < 2) {
                throw new IllegalArgumentException("'" + part + "' is not a duration like 5s, 2m, 1h or 1d");
            }
            long unitMs = switch (part.charAt(part.length() - 1)) {
                case 's' -> 1_000L;
                case 'm' -> 60_000L;
                case 'h' -> 3_600_000L;
                case 'd' -> 86_400_000L;
                default -> throw new IllegalArgumentException("'" + part + "' has no unit s, m, h or d");
            };
            long amount;
            try {
                amount = Long.parseLong(part.substring(0, part.length() - 1));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("'" + part + "' is not a duration like 5s, 2m, 1h or 1d", e);
            }
            if (amount < 1 || amount > 365) {
                throw new IllegalArgumentException("'" + part + "' is out of range 1..365 units");
            }
            levels.add(amount * unitMs);
        }
        return List.copyOf(levels);
    }

    private static String formatDelayLevels(List<Long> levelsMs) {
        StringBuilder s = new StringBuilder();
        for (long ms : levelsMs) {
            s.append(s.length() == 0 ? "" : " ");
            if (ms % 86_400_000L == 0) {
                s.append(ms / 86_400_000L).append('d');
            } else if (ms % 3_600_000L == 0) {
                s.append(ms / 3_600_000L).append('h');
            } else if (ms % 60_000L == 0) {
                s.append(ms / 60_000L).append('m');
            } else {
                s.append(ms / 1_000L).append('s');
            }
        }
        return s.toString();
    }

    private static String escape(String s) {
        return s.replace("|", "\\|");
    }

    private static Map<String, ConfigKey<?>> index(List<ConfigKey<?>> keys) {
        Map<String, ConfigKey<?>> byName = new LinkedHashMap<>();
        for (ConfigKey<?> key : keys) {
            if (byName.put(key.name(), key) != null) {
                throw new IllegalStateException("configuration key " + key.name() + " is defined twice");
            }
        }
        return Collections.unmodifiableMap(byName);
    }
}
