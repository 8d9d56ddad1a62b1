package io.sluice.broker.config;

import io.sluice.store.dispatch.DispatchMode;
import io.sluice.store.dispatch.pipeline.PipelineSettings;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Every broker setting, validated once. Built by {@link BrokerConfigLoader} from a {@code broker.conf}, or in code
 * (embedded brokers, tests) with {@link #builder()}. The composition root reads it and hands each component only
 * the values it needs; components never see this object.
 *
 * <p>The meaning, default and range of each value is defined once, in {@link BrokerConfigKeys}; the accessors here
 * name the key they return. Cross-key rules checked by {@link Builder#build()}:
 * <ul>
 *   <li>{@code mappedFileSizeCommitLog >= maxMessageSize + 64 KiB} (a CommitLog file holds the largest record);</li>
 *   <li>{@code serverMaxFrameBytes > maxMessageSize} (a send request carries the body plus headers);</li>
 *   <li>{@code brokerId} is 0 exactly when {@code brokerRole} is a master role; a SLAVE has {@code haMasterAddress}
 *       or {@code namesrvAddr};</li>
 *   <li>with {@code enableControllerMode}: {@code controllerAddr} is set;</li>
 *   <li>{@code storePathRootDir} is set ({@link BrokerConfigLoader} defaults it to {@code ${user.home}/store});
 *       {@code storePathCommitLog} defaults to {@code <storePathRootDir>/commitlog}.</li>
 * </ul>
 *
 * <p>Immutable; thread-safe.
 */
public final class BrokerSettings {

    /** Room for a record's header and properties on top of the body (Apache: body + 64 KiB). */
    static final int RECORD_OVERHEAD_BYTES = 64 * 1024;

    private final Map<ConfigKey<?>, Object> values;

    private BrokerSettings(Map<ConfigKey<?>, Object> values) {
        this.values = Collections.unmodifiableMap(values);
    }

    /** A builder holding no values; {@link Builder#build()} fills every unset key with its default. */
    public static Builder builder() {
        return new Builder("BrokerSettings.builder()");
    }

    static Builder builder(String source) {
        return new Builder(source);
    }

    /** The value of any key. */
    public <T> T get(ConfigKey<T> key) {
        @SuppressWarnings("unchecked")
        T value = (T) values.get(key);
        return value;
    }

    /**
     * Every value as text, in {@link BrokerConfigKeys#all()} order: the effective configuration (what
     * GET_BROKER_CONFIG returns, one {@code key=value} per line). Each value reads back through {@link
     * BrokerConfigLoader#parse(String)}.
     */
    public Map<String, String> toProperties() {
        Map<String, String> text = new LinkedHashMap<>();
        for (ConfigKey<?> key : BrokerConfigKeys.all()) {
            text.put(key.name(), formatValue(key));
        }
        return Collections.unmodifiableMap(text);
    }

    private <T> String formatValue(ConfigKey<T> key) {
        return key.format(get(key));
    }

    // ------------------------------------------------------------------ identity and network

    /** {@code brokerClusterName}. */
    public String brokerClusterName() {
        return get(BrokerConfigKeys.BROKER_CLUSTER_NAME);
    }

    /** {@code brokerName}. */
    public String brokerName() {
        return get(BrokerConfigKeys.BROKER_NAME);
    }

    /** {@code brokerId}: 0 = master, 1 and up = slave. */
    public long brokerId() {
        return get(BrokerConfigKeys.BROKER_ID);
    }

    /** {@code brokerRole}. */
    public BrokerRole brokerRole() {
        return get(BrokerConfigKeys.BROKER_ROLE);
    }

    /** {@code haListenPort} (unset: listenPort + 1); 0 = any free port. */
    public int haListenPort() {
        return get(BrokerConfigKeys.HA_LISTEN_PORT);
    }

    /** {@code haMasterAddress} as {@code host:port}; empty = learn it from the name server. */
    public String haMasterAddress() {
        return get(BrokerConfigKeys.HA_MASTER_ADDRESS);
    }

    /** {@code slaveReadEnable}. */
    public boolean slaveReadEnable() {
        return get(BrokerConfigKeys.SLAVE_READ_ENABLE);
    }

    /** {@code enableControllerMode}. */
    public boolean controllerMode() {
        return get(BrokerConfigKeys.ENABLE_CONTROLLER_MODE);
    }

    /** {@code controllerAddr} as a list of {@code host:port}. */
    public List<String> controllerAddresses() {
        return get(BrokerConfigKeys.CONTROLLER_ADDR);
    }

    /** {@code controllerHeartBeatTimeoutMills}. */
    public long controllerHeartbeatTimeoutMs() {
        return get(BrokerConfigKeys.CONTROLLER_HEART_BEAT_TIMEOUT_MILLS);
    }

    /** {@code brokerHeartbeatInterval}. */
    public long brokerHeartbeatIntervalMs() {
        return get(BrokerConfigKeys.BROKER_HEARTBEAT_INTERVAL);
    }

    /** {@code haMaxTimeSlaveNotCatchup}. */
    public long haMaxTimeSlaveNotCatchupMs() {
        return get(BrokerConfigKeys.HA_MAX_TIME_SLAVE_NOT_CATCHUP);
    }

    /** {@code namesrvAddr} as a list of {@code host:port}; empty = standalone. */
    public List<String> namesrvAddresses() {
        return get(BrokerConfigKeys.NAMESRV_ADDR);
    }

    /** {@code listenPort}; 0 = any free port. */
    public int listenPort() {
        return get(BrokerConfigKeys.LISTEN_PORT);
    }

    /** {@code bindAddress}: the IP the client port binds (0.0.0.0 = every interface). */
    public String bindAddress() {
        return get(BrokerConfigKeys.BIND_ADDRESS);
    }

    /** {@code brokerIP1}; empty = pick the host's first non-loopback address. */
    public String brokerIp1() {
        return get(BrokerConfigKeys.BROKER_IP1);
    }

    /** {@code serverMaxFrameBytes}. */
    public int serverMaxFrameBytes() {
        return get(BrokerConfigKeys.SERVER_MAX_FRAME_BYTES);
    }

    /** {@code serverWorkerThreads}. */
    public int serverWorkerThreads() {
        return get(BrokerConfigKeys.SERVER_WORKER_THREADS);
    }

    /** {@code sendMessageThreadPoolNums}. */
    public int sendMessageThreads() {
        return get(BrokerConfigKeys.SEND_MESSAGE_THREAD_POOL_NUMS);
    }

    /** {@code sendOnIoThread}. */
    public boolean sendOnIoThread() {
        return get(BrokerConfigKeys.SEND_ON_IO_THREAD);
    }

    /** {@code pullOnIoThread}. */
    public boolean pullOnIoThread() {
        return get(BrokerConfigKeys.PULL_ON_IO_THREAD);
    }

    /** {@code pullMessageThreadPoolNums}. */
    public int pullMessageThreads() {
        return get(BrokerConfigKeys.PULL_MESSAGE_THREAD_POOL_NUMS);
    }

    /** {@code sendThreadPoolQueueCapacity}. */
    public int sendQueueCapacity() {
        return get(BrokerConfigKeys.SEND_THREAD_POOL_QUEUE_CAPACITY);
    }

    /** {@code pullThreadPoolQueueCapacity}. */
    public int pullQueueCapacity() {
        return get(BrokerConfigKeys.PULL_THREAD_POOL_QUEUE_CAPACITY);
    }

    /** {@code registerBrokerIntervalMs}. */
    public int registerBrokerIntervalMs() {
        return get(BrokerConfigKeys.REGISTER_BROKER_INTERVAL_MS);
    }

    /** {@code registerBrokerTimeoutMs}. */
    public int registerBrokerTimeoutMs() {
        return get(BrokerConfigKeys.REGISTER_BROKER_TIMEOUT_MS);
    }

    /** {@code clientChannelExpiredTimeoutMs}. */
    public int clientChannelExpiredTimeoutMs() {
        return get(BrokerConfigKeys.CLIENT_CHANNEL_EXPIRED_TIMEOUT_MS);
    }

    /** {@code brokerPermission} bits. */
    public int brokerPermission() {
        return get(BrokerConfigKeys.BROKER_PERMISSION);
    }

    // ------------------------------------------------------------------ storage

    /** {@code metricsExporterType}. */
    public MetricsExporterType metricsExporterType() {
        return get(BrokerConfigKeys.METRICS_EXPORTER_TYPE);
    }

    /** {@code metricsPromExporterPort}. */
    public int metricsPromExporterPort() {
        return get(BrokerConfigKeys.METRICS_PROM_EXPORTER_PORT);
    }

    /** {@code metricsPromExporterHost}; empty = brokerIP1, else loopback. */
    public String metricsPromExporterHost() {
        return get(BrokerConfigKeys.METRICS_PROM_EXPORTER_HOST);
    }

    /** {@code storePathRootDir}. */
    public Path storePathRootDir() {
        return get(BrokerConfigKeys.STORE_PATH_ROOT_DIR);
    }

    /** {@code storePathCommitLog}. */
    public Path storePathCommitLog() {
        return get(BrokerConfigKeys.STORE_PATH_COMMIT_LOG);
    }

    /** Where the metadata database lives: {@code <storePathRootDir>/config/metadata}. */
    public Path metadataDir() {
        return storePathRootDir().resolve("config").resolve("metadata");
    }

    /** {@code mappedFileSizeCommitLog}. */
    public int commitLogSegmentBytes() {
        return get(BrokerConfigKeys.MAPPED_FILE_SIZE_COMMIT_LOG);
    }

    /** {@code mappedFileSizeConsumeQueue}. */
    public int consumeQueueFileBytes() {
        return get(BrokerConfigKeys.MAPPED_FILE_SIZE_CONSUME_QUEUE);
    }

    /** {@code mapperFileSizeBatchConsumeQueue}. */
    public int batchConsumeQueueFileBytes() {
        return get(BrokerConfigKeys.MAPPER_FILE_SIZE_BATCH_CONSUME_QUEUE);
    }

    /** {@code messageIndexEnable}. */
    public boolean messageIndexEnable() {
        return get(BrokerConfigKeys.MESSAGE_INDEX_ENABLE);
    }

    /** {@code maxHashSlotNum}. */
    public int maxHashSlotNum() {
        return get(BrokerConfigKeys.MAX_HASH_SLOT_NUM);
    }

    /** {@code maxIndexNum}. */
    public int maxIndexNum() {
        return get(BrokerConfigKeys.MAX_INDEX_NUM);
    }

    /** {@code batchCqUnitMaxBytes}. */
    public int batchCqUnitMaxBytes() {
        return get(BrokerConfigKeys.BATCH_CQ_UNIT_MAX_BYTES);
    }

    /** {@code batchCqSpanMaxBytes}. */
    public int batchCqSpanMaxBytes() {
        return get(BrokerConfigKeys.BATCH_CQ_SPAN_MAX_BYTES);
    }

    /** {@code maxMessageSize}. */
    public int maxMessageBytes() {
        return get(BrokerConfigKeys.MAX_MESSAGE_SIZE);
    }

    /** {@code flushDiskType}. */
    public FlushDiskType flushDiskType() {
        return get(BrokerConfigKeys.FLUSH_DISK_TYPE);
    }

    /** {@code warmMapedFileEnable}. */
    public boolean warmMappedFile() {
        return get(BrokerConfigKeys.WARM_MAPED_FILE_ENABLE);
    }

    /** {@code commitLogZeroFillAheadBytes}. */
    public int commitLogZeroFillAheadBytes() {
        return get(BrokerConfigKeys.COMMIT_LOG_ZERO_FILL_AHEAD_BYTES);
    }

    /** {@code commitLogPageCacheMaxBytes}. */
    public long commitLogPageCacheMaxBytes() {
        return get(BrokerConfigKeys.COMMIT_LOG_PAGE_CACHE_MAX_BYTES);
    }

    /** {@code commitLogRecycledSegments}. */
    public int commitLogRecycledSegments() {
        return get(BrokerConfigKeys.COMMIT_LOG_RECYCLED_SEGMENTS);
    }

    /** {@code flushIntervalCommitLog}. */
    public int flushIntervalCommitLogMs() {
        return get(BrokerConfigKeys.FLUSH_INTERVAL_COMMIT_LOG);
    }

    /** {@code flushIntervalConsumeQueue}. */
    public int flushIntervalConsumeQueueMs() {
        return get(BrokerConfigKeys.FLUSH_INTERVAL_CONSUME_QUEUE);
    }

    /** {@code flushIntervalKeyIndex}. */
    public int flushIntervalKeyIndexMs() {
        return get(BrokerConfigKeys.FLUSH_INTERVAL_KEY_INDEX);
    }

    /** {@code syncFlushTimeout}. */
    public long syncFlushTimeoutMs() {
        return get(BrokerConfigKeys.SYNC_FLUSH_TIMEOUT);
    }

    /** {@code dispatchMode}. */
    public DispatchMode dispatchMode() {
        return get(BrokerConfigKeys.DISPATCH_MODE);
    }

    /**
     * The pipelined dispatcher's shape: {@code dispatchChunkBytes}, {@code dispatchMaxRecordsPerChunk},
     * {@code dispatchParseThreads} (0: one per available processor), {@code dispatchRingSlots} and
     * {@code dispatchInlineMaxBytes} and {@code dispatchAppenderAssist}.
     */
    public PipelineSettings dispatchPipeline() {
        int threads = get(BrokerConfigKeys.DISPATCH_PARSE_THREADS);
        return new PipelineSettings(get(BrokerConfigKeys.DISPATCH_CHUNK_BYTES),
                get(BrokerConfigKeys.DISPATCH_MAX_RECORDS_PER_CHUNK),
                threads == 0 ? PipelineSettings.defaultParseThreads() : threads,
                get(BrokerConfigKeys.DISPATCH_RING_SLOTS), false, get(BrokerConfigKeys.DISPATCH_INLINE_MAX_BYTES),
                get(BrokerConfigKeys.DISPATCH_APPENDER_ASSIST));
    }

    /** {@code deleteWhen}: the hours of day (0..23, sorted, distinct) at which expired files are deleted. */
    public List<Integer> deleteWhenHours() {
        return get(BrokerConfigKeys.DELETE_WHEN);
    }

    /** {@code fileReservedTime}. */
    public int fileReservedHours() {
        return get(BrokerConfigKeys.FILE_RESERVED_TIME);
    }

    /** {@code diskMaxUsedSpaceRatio}, percent. */
    public int diskMaxUsedSpaceRatio() {
        return get(BrokerConfigKeys.DISK_MAX_USED_SPACE_RATIO);
    }

    /** {@code diskSpaceWarningLevelRatio}, percent. */
    public int diskSpaceWarningLevelRatio() {
        return get(BrokerConfigKeys.DISK_SPACE_WARNING_LEVEL_RATIO);
    }

    /** {@code diskSpaceCleanForciblyRatio}, percent. */
    public int diskSpaceCleanForciblyRatio() {
        return get(BrokerConfigKeys.DISK_SPACE_CLEAN_FORCIBLY_RATIO);
    }

    /** {@code cleanFileForciblyEnable}. */
    public boolean cleanFileForciblyEnable() {
        return get(BrokerConfigKeys.CLEAN_FILE_FORCIBLY_ENABLE);
    }

    /** {@code cleanResourceInterval}. */
    public int cleanResourceIntervalMs() {
        return get(BrokerConfigKeys.CLEAN_RESOURCE_INTERVAL);
    }

    /** {@code destroyMapedFileIntervalForcibly}. */
    public int destroyMappedFileGraceMs() {
        return get(BrokerConfigKeys.DESTROY_MAPED_FILE_INTERVAL_FORCIBLY);
    }

    // ------------------------------------------------------------------ topics, groups, consumers

    /** {@code autoCreateTopicEnable}. */
    public boolean autoCreateTopicEnable() {
        return get(BrokerConfigKeys.AUTO_CREATE_TOPIC_ENABLE);
    }

    /** {@code autoCreateSubscriptionGroup}. */
    public boolean autoCreateSubscriptionGroup() {
        return get(BrokerConfigKeys.AUTO_CREATE_SUBSCRIPTION_GROUP);
    }

    /** {@code defaultTopicQueueNums}. */
    public int defaultTopicQueueNums() {
        return get(BrokerConfigKeys.DEFAULT_TOPIC_QUEUE_NUMS);
    }

    /** {@code flushConsumerOffsetInterval}. */
    public int flushConsumerOffsetIntervalMs() {
        return get(BrokerConfigKeys.FLUSH_CONSUMER_OFFSET_INTERVAL);
    }

    /** {@code longPollingEnable}. */
    public boolean longPollingEnable() {
        return get(BrokerConfigKeys.LONG_POLLING_ENABLE);
    }

    /** {@code shortPollingTimeMills}. */
    public long shortPollingTimeMs() {
        return get(BrokerConfigKeys.SHORT_POLLING_TIME_MILLS);
    }

    /** {@code longPollingSuspendMaxMs}. */
    public long longPollingSuspendMaxMs() {
        return get(BrokerConfigKeys.LONG_POLLING_SUSPEND_MAX_MS);
    }

    /** {@code maxTransferBytesOnMessageInMemory}. */
    public int maxTransferBytesPerPull() {
        return get(BrokerConfigKeys.MAX_TRANSFER_BYTES_ON_MESSAGE_IN_MEMORY);
    }

    /** {@code maxTransferCountOnMessageInMemory}. */
    public int maxTransferCountPerPull() {
        return get(BrokerConfigKeys.MAX_TRANSFER_COUNT_ON_MESSAGE_IN_MEMORY);
    }

    /** {@code messageDelayLevel}: delay of level {@code i + 1} in milliseconds at index {@code i}. */
    public List<Long> delayLevelsMs() {
        return get(BrokerConfigKeys.MESSAGE_DELAY_LEVEL);
    }

    /** {@code transactionTimeOut}. */
    public long transactionTimeOutMs() {
        return get(BrokerConfigKeys.TRANSACTION_TIME_OUT);
    }

    /** {@code transactionCheckInterval}. */
    public long transactionCheckIntervalMs() {
        return get(BrokerConfigKeys.TRANSACTION_CHECK_INTERVAL);
    }

    /** {@code transactionCheckMax}. */
    public int transactionCheckMax() {
        return get(BrokerConfigKeys.TRANSACTION_CHECK_MAX);
    }

    /** {@code timerWheelEnable}. */
    public boolean timerWheelEnable() {
        return get(BrokerConfigKeys.TIMER_WHEEL_ENABLE);
    }

    /** {@code timerPrecisionMs}. */
    public long timerPrecisionMs() {
        return get(BrokerConfigKeys.TIMER_PRECISION_MS);
    }

    /** {@code timerMaxDelaySec}. */
    public long timerMaxDelaySec() {
        return get(BrokerConfigKeys.TIMER_MAX_DELAY_SEC);
    }

    /** Where the timer index database lives: {@code <storePathRootDir>/timer/index}. */
    public Path timerIndexDir() {
        return storePathRootDir().resolve("timer").resolve("index");
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof BrokerSettings other && values.equals(other.values);
    }

    @Override
    public int hashCode() {
        return values.hashCode();
    }

    @Override
    public String toString() {
        return "BrokerSettings" + toProperties();
    }

    /** Apache's default HA port: the one after listenPort (any free port when listenPort is 0, for tests). */
    private static int haPortBeside(Map<ConfigKey<?>, Object> set) {
        Object explicit = set.get(BrokerConfigKeys.LISTEN_PORT);
        int listenPort = explicit != null ? (Integer) explicit : BrokerConfigKeys.LISTEN_PORT.defaultValue();
        return listenPort == 0 ? 0 : (listenPort + 1) % 65536;
    }

    /**
     * Collects values, then validates them once in {@link #build()}.
     *
     * <p>Not thread-safe; use from one thread.
     */
    public static final class Builder {
        private final String source;
        private final Map<ConfigKey<?>, Object> values = new LinkedHashMap<>();

        private Builder(String source) {
            this.source = source;
        }

        /**
         * Sets a value, checked against the key's range and rules.
         *
         * @throws ConfigException naming the key and the value when it is invalid
         */
        public <T> Builder set(ConfigKey<T> key, T value) {
            if (value == null) {
                throw ConfigException.badValue(key.name(), "null", source, "a value is required", null);
            }
            return setText(key, key.format(value));
        }

        /**
         * Sets a key from its text form, as written in {@code broker.conf}.
         *
         * @throws ConfigException naming the key (unknown) or the key and the value (invalid)
         */
        public Builder setText(String name, String text) {
            ConfigKey<?> key = BrokerConfigKeys.find(name).orElseThrow(() -> ConfigException.unknownKey(name, source));
            return setText(key, text);
        }

        private Builder setText(ConfigKey<?> key, String text) {
            try {
                values.put(key, key.parse(text));
            } catch (IllegalArgumentException e) {
                throw ConfigException.badValue(key.name(), text, source, e.getMessage(), e);
            }
            return this;
        }

        /** True when {@code key} was set explicitly. */
        boolean isSet(ConfigKey<?> key) {
            return values.containsKey(key);
        }

        /**
         * Fills defaults and checks the cross-key rules.
         *
         * @throws ConfigException naming the key whose value breaks a rule
         */
        public BrokerSettings build() {
            Map<ConfigKey<?>, Object> all = new LinkedHashMap<>();
            Path root = (Path) values.get(BrokerConfigKeys.STORE_PATH_ROOT_DIR);
            if (root == null) {
                throw ConfigException.inconsistent(BrokerConfigKeys.STORE_PATH_ROOT_DIR.name(), source,
                        "is required (BrokerConfigLoader defaults it to ${user.home}/store)");
            }
            for (ConfigKey<?> key : BrokerConfigKeys.all()) {
                Object value = values.get(key);
                if (value == null && key == BrokerConfigKeys.STORE_PATH_COMMIT_LOG) {
                    value = root.resolve("commitlog");
                } else if (value == null && key == BrokerConfigKeys.HA_LISTEN_PORT) {
                    value = haPortBeside(values);
                } else if (value == null) {
                    value = key.defaultValue();
                }
                all.put(key, value);
            }
            BrokerSettings settings = new BrokerSettings(all);
            int maxMessage = settings.maxMessageBytes();
            if ((long) maxMessage + RECORD_OVERHEAD_BYTES > settings.commitLogSegmentBytes()) {
                throw ConfigException.inconsistent(BrokerConfigKeys.MAPPED_FILE_SIZE_COMMIT_LOG.name(), source,
                        settings.commitLogSegmentBytes() + " cannot hold the largest record: maxMessageSize "
                                + maxMessage + " + " + RECORD_OVERHEAD_BYTES + " bytes");
            }
            if ((settings.brokerId() == 0) != settings.brokerRole().isMaster()) {
                throw ConfigException.inconsistent(BrokerConfigKeys.BROKER_ID.name(), source,
                        settings.brokerId() + " does not fit brokerRole " + settings.brokerRole()
                                + ": a master has brokerId 0, a slave 1 or more");
            }
            if (settings.brokerRole() == BrokerRole.SLAVE && settings.haMasterAddress().isEmpty()
                    && settings.namesrvAddresses().isEmpty()) {
                throw ConfigException.inconsistent(BrokerConfigKeys.HA_MASTER_ADDRESS.name(), source,
                        "is required for a SLAVE without namesrvAddr (nothing else tells it where its master is)");
            }
            if (settings.controllerMode() && settings.controllerAddresses().isEmpty()) {
                throw ConfigException.inconsistent(BrokerConfigKeys.CONTROLLER_ADDR.name(), source,
                        "is required with enableControllerMode (it names the controllers that choose the role)");
            }
            if (settings.serverMaxFrameBytes() <= maxMessage) {
                throw ConfigException.inconsistent(BrokerConfigKeys.SERVER_MAX_FRAME_BYTES.name(), source,
                        settings.serverMaxFrameBytes() + " must exceed maxMessageSize " + maxMessage);
            }
            return settings;
        }
    }
}
