package io.sluice.broker.ha;

import com.alibaba.fastjson2.JSONException;
import com.alibaba.fastjson2.JSONObject;
import io.sluice.remoting.protocol.RemotingCommand;
import io.sluice.remoting.protocol.RequestCode;
import io.sluice.remoting.protocol.ResponseCode;
import io.sluice.remoting.protocol.body.JsonObjects;
import io.sluice.remoting.transport.RemotingClient;
import io.sluice.broker.meta.MetadataJson;
import io.sluice.broker.meta.MetadataStore;
import io.sluice.broker.meta.TopicConfig;
import io.sluice.format.ConsumeQueueType;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A slave's copy of its master's metadata, pulled through admin calls as Apache's slave does: topic configs
 * (GET_ALL_TOPIC_CONFIG), subscription groups (GET_ALL_SUBSCRIPTIONGROUP_CONFIG) and consumer offsets
 * (GET_ALL_CONSUMER_OFFSET, see {@link MetadataExport}), every sync period ({@link #syncAll}); and, for the
 * dispatcher, the queue type of a topic whose records arrive before the next sync ({@link #queueTypeOf}), asked of
 * the master at once so that its records are indexed with the right consume-queue type.
 *
 * <p>Threads: {@link #syncAll} runs on the broker's scheduler, {@link #queueTypeOf} on the dispatch thread. Both
 * only write through the metadata store, which is thread-safe; the counters are atomic.
 */
public final class MasterMetadataSync {

    private static final Logger LOG = LoggerFactory.getLogger(MasterMetadataSync.class);

    private final MetadataStore metadata;
    private final RemotingClient client;
    private final Supplier<Optional<String>> masterAddress;
    private final long timeoutMs;
    private final AtomicLong syncs = new AtomicLong();
    private final AtomicLong failures = new AtomicLong();
    private volatile boolean failing;

    /**
     * @param masterAddress the master's client {@code host:port}, asked before every call (empty: not known yet)
     * @param timeoutMs     timeout of one admin call
     */
    public MasterMetadataSync(MetadataStore metadata, RemotingClient client, Supplier<Optional<String>> masterAddress,
                              long timeoutMs) {
        this.metadata = metadata;
        this.client = client;
        this.masterAddress = masterAddress;
        this.timeoutMs = timeoutMs;
    }

    /**
     * The queue type of {@code topic}: the local config's, else the master's (stored here); SIMPLE when neither
     * answers (logged), so that the records are indexed rather than skipped.
     */
    public ConsumeQueueType queueTypeOf(String topic) {
        Optional<TopicConfig> local = metadata.getTopic(topic);
        if (local.isPresent()) {
            return local.get().queueType();
        }
        try {
            RemotingCommand response = call(RemotingCommand.request(RequestCode.GET_TOPIC_CONFIG)
                    .putExtField("topic", topic));
            if (response.code() == ResponseCode.SUCCESS && response.body() != null) {
                TopicConfig config = MetadataJson.topicFromJson(new String(response.body(), StandardCharsets.UTF_8));
                metadata.putTopic(config);
                return config.queueType();
            }
            LOG.warn("the master has no config of topic {} ({} {}); indexing its records as SIMPLE", topic,
                    response.code(), response.remark());
        } catch (SyncException | IllegalArgumentException e) {
            LOG.warn("cannot ask the master for the config of topic {} ({}); indexing its records as SIMPLE", topic,
                    e.getMessage());
        }
        return ConsumeQueueType.SIMPLE;
    }

    /** Copies the master's topics, groups and consumer offsets; a failure is counted and logged once per streak. */
    public void syncAll() {
        try {
            int topics = syncTopics();
            int groups = syncGroups();
            int offsets = syncOffsets();
            syncs.incrementAndGet();
            if (failing) {
                LOG.info("metadata sync from the master works again ({} topics, {} groups, {} offsets)", topics,
                        groups, offsets);
            }
            failing = false;
        } catch (SyncException | IllegalArgumentException | JSONException e) {
            failures.incrementAndGet();
            if (!failing) {
                LOG.warn("metadata sync from the master failed: {}", e.getMessage());
            }
            failing = true;
        }
    }

    private int syncTopics() throws SyncException {
        JSONObject table = bodyOf(RequestCode.GET_ALL_TOPIC_CONFIG).getJSONObject("topicConfigTable");
        List<TopicConfig> configs = new ArrayList<>();
        if (table != null) {
            for (String name : table.keySet()) {
                TopicConfig config = MetadataJson.topicFromObject(table.getJSONObject(name));
                if (!metadata.getTopic(name).equals(Optional.of(config))) {
                    configs.add(config);
                }
            }
        }
        if (!configs.isEmpty()) {
            metadata.putTopics(configs);
        }
        return configs.size();
    }

    private int syncGroups() throws SyncException {
        JSONObject table = bodyOf(RequestCode.GET_ALL_SUBSCRIPTIONGROUP_CONFIG).getJSONObject("subscriptionGroupTable");
        int changed = 0;
        if (table != null) {
            for (String name : table.keySet()) {
                var config = MetadataJson.groupFromJson(table.getJSONObject(name).toJSONString());
                if (!metadata.getGroup(name).equals(Optional.of(config))) {
                    metadata.putGroup(config);
                    changed++;
                }
            }
        }
        return changed;
    }

    private int syncOffsets() throws SyncException {
        JSONObject table = bodyOf(MetadataExport.GET_ALL_CONSUMER_OFFSET).getJSONObject("offsetTable");
        int copied = 0;
        if (table == null) {
            return 0;
        }
        for (Map.Entry<String, Object> entry : table.entrySet()) {
            String key = entry.getKey();
            int at = key.lastIndexOf(MetadataExport.TOPIC_GROUP_SEPARATOR);
            if (at <= 0 || !(entry.getValue() instanceof JSONObject queues)) {
                throw new IllegalArgumentException("malformed consumer offset entry '" + key + "'");
            }
            String topic = key.substring(0, at);
            String group = key.substring(at + 1);
            for (String queueId : queues.keySet()) {
                long offset = queues.getLongValue(queueId);
                int queue = Integer.parseInt(queueId);
                if (metadata.queryOffset(group, topic, queue) != offset) {
                    metadata.commitOffset(group, topic, queue, offset);
                    copied++;
                }
            }
        }
        return copied;
    }

    private JSONObject bodyOf(int code) throws SyncException {
        RemotingCommand response = call(RemotingCommand.request(code));
        if (response.code() != ResponseCode.SUCCESS || response.body() == null) {
            throw new SyncException("request " + code + " answered " + response.code() + " " + response.remark());
        }
        return JsonObjects.parse(new String(response.body(), StandardCharsets.UTF_8));
    }

    private RemotingCommand call(RemotingCommand request) throws SyncException {
        Optional<String> address = masterAddress.get();
        if (address.isEmpty()) {
            throw new SyncException("the master's address is not known yet");
        }
        try {
            return client.invoke(address.get(), request, timeoutMs).get(timeoutMs + 1_000, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SyncException("interrupted");
        } catch (ExecutionException | TimeoutException e) {
            throw new SyncException("master " + address.get() + ": " + e);
        }
    }

    /** Successful full syncs so far. */
    public long syncCount() {
        return syncs.get();
    }

    /** Failed full syncs so far. */
    public long failureCount() {
        return failures.get();
    }

    /** A call to the master that did not give an answer to use. */
    private static final class SyncException extends Exception {
        private static final long serialVersionUID = 1L;

        SyncException(String message) {
            super(message);
        }
    }
}
