package io.sluice.broker.ha;

import com.alibaba.fastjson2.JSONObject;
import io.sluice.remoting.protocol.RemotingCommand;
import io.sluice.remoting.protocol.ResponseCode;
import io.sluice.remoting.transport.ConnectionContext;
import io.sluice.broker.meta.ConsumerOffset;
import io.sluice.broker.meta.MetadataJson;
import io.sluice.broker.meta.MetadataStore;
import io.sluice.broker.meta.SubscriptionGroupConfig;
import io.sluice.broker.meta.TopicConfig;
import java.nio.charset.StandardCharsets;

/**
 * The admin calls a slave uses to copy its master's metadata (Apache's slave synchronisation), served by every
 * broker: GET_ALL_CONSUMER_OFFSET (43), body {@code {"offsetTable":{"<topic>@<group>":{"<queueId>":offset}}}},
 * and GET_ALL_SUBSCRIPTIONGROUP_CONFIG (201), body {@code {"subscriptionGroupTable":{"<group>":{...}}}}. Topic
 * configs come from GET_ALL_TOPIC_CONFIG (21), which the broker already serves.
 *
 * <p>Stateless apart from the metadata store; thread-safe.
 */
public final class MetadataExport {

    /** Apache's GET_ALL_CONSUMER_OFFSET. */
    public static final int GET_ALL_CONSUMER_OFFSET = 43;
    /** Separator of a consumer offset key, as in Apache's offset table. */
    static final String TOPIC_GROUP_SEPARATOR = "@";

    private final MetadataStore metadata;

    public MetadataExport(MetadataStore metadata) {
        this.metadata = metadata;
    }

    /** GET_ALL_CONSUMER_OFFSET (43). */
    public RemotingCommand onGetAllConsumerOffset(ConnectionContext connection, RemotingCommand request) {
        JSONObject table = new JSONObject();
        for (TopicConfig topic : metadata.allTopics()) {
            for (ConsumerOffset offset : metadata.offsetsForTopic(topic.topicName())) {
                String key = offset.topic() + TOPIC_GROUP_SEPARATOR + offset.group();
                JSONObject queues = table.getJSONObject(key);
                if (queues == null) {
                    queues = new JSONObject();
                    table.put(key, queues);
                }
                queues.put(Integer.toString(offset.queueId()), offset.offset());
            }
        }
        JSONObject body = new JSONObject();
        body.put("offsetTable", table);
        return RemotingCommand.response(ResponseCode.SUCCESS, null)
                .setBody(body.toJSONString().getBytes(StandardCharsets.UTF_8));
    }

    /** GET_ALL_SUBSCRIPTIONGROUP_CONFIG (201). */
    public RemotingCommand onGetAllSubscriptionGroups(ConnectionContext connection, RemotingCommand request) {
        JSONObject table = new JSONObject();
        for (SubscriptionGroupConfig group : metadata.allGroups()) {
            table.put(group.groupName(), MetadataJson.groupObject(group));
        }
        JSONObject body = new JSONObject();
        body.put("subscriptionGroupTable", table);
        return RemotingCommand.response(ResponseCode.SUCCESS, null)
                .setBody(body.toJSONString().getBytes(StandardCharsets.UTF_8));
    }
}
