package io.sluice.broker.handler;

import io.sluice.broker.client.ClientRegistry;
import io.sluice.broker.client.SubscriptionGroups;
import io.sluice.broker.longpoll.PullParking;
import io.sluice.testing.Await;
import io.sluice.broker.testing.FakeConnection;
import io.sluice.broker.topic.TopicAnnouncer;
import io.sluice.broker.topic.TopicRegistry;
import io.sluice.broker.topic.TopicSettings;
import io.sluice.broker.topic.TopicUpdate;
import io.sluice.remoting.protocol.RemotingCommand;
import io.sluice.remoting.protocol.RequestCode;
import io.sluice.store.MessageStore;
import io.sluice.store.StoreSettings;
import io.sluice.store.index.IndexSettings;
import io.sluice.broker.meta.MetadataSettings;
import io.sluice.broker.meta.MetadataStore;
import io.sluice.broker.meta.TopicPerm;
import io.sluice.format.BatchBodyDescriptor;
import io.sluice.format.MessageProperties;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.agrona.concurrent.SystemEpochClock;
import org.apache.rocketmq.common.message.MessageDecoder;
import org.apache.rocketmq.common.message.MessageExt;

/**
 * Real metadata and message stores in a temporary directory with the send, pull and offset handlers wired as the
 * broker wires them; small files. Closes everything in {@link #close()}.
 */
final class HandlerFixture implements AutoCloseable {

    static final InetSocketAddress STORE_HOST = new InetSocketAddress(InetAddress.getLoopbackAddress(), 10911);
    static final String CLUSTER = "TestCluster";

    final MetadataStore metadata;
    final MessageStore store;
    final TopicRegistry topics;
    final SubscriptionGroups groups;
    final ClientRegistry clients;
    final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
    final ExecutorService pullExecutor = Executors.newFixedThreadPool(2);
    final PullParking parking;
    final SendHandler send;
    final PullHandler pull;
    final OffsetHandler offsets;
    final FakeConnection connection = new FakeConnection(40001);

    HandlerFixture(Path dir, int brokerPermission, boolean longPolling) throws IOException {
        this(dir, new PullSettings(brokerPermission, longPolling, 200, 25_000, 256 * 1024, 32));
    }

    HandlerFixture(Path dir, PullSettings pullSettings) throws IOException {
        int brokerPermission = pullSettings.brokerPermission();
        metadata = MetadataStore.open(MetadataSettings.of(dir.resolve("metadata")));
        topics = new TopicRegistry(metadata, new TopicSettings(false, 8), TopicAnnouncer.NONE);
        Path root = dir.resolve("store");
        StoreSettings.Builder settings = StoreSettings.builder(root, STORE_HOST)
                .index(IndexSettings.defaults(root).withSimpleCqSlotsPerFile(1_000).withBatchCqSlotsPerFile(1_000));
        settings.log().segmentBytes(8 << 20).preallocateSegments(false);
        store = MessageStore.open(settings.build(), topics::queueTypeOf);
        groups = new SubscriptionGroups(metadata, true);
        clients = new ClientRegistry(120_000, SystemEpochClock.INSTANCE, groups::notifyEnabled);
        parking = new PullParking(timer, pullExecutor);
        store.addArrivalListener(parking::onArrival);
        send = new SendHandler(store, topics, groups, new SendSettings(CLUSTER, "broker-t", brokerPermission,
                1 << 20, STORE_HOST), SystemEpochClock.INSTANCE, SendHooks.NONE);
        pull = new PullHandler(store, metadata, topics, groups, clients, parking, pullSettings, PullObserver.NONE);
        offsets = new OffsetHandler(store, metadata, topics, groups);
    }

    HandlerFixture(Path dir) throws IOException {
        this(dir, TopicPerm.READ_WRITE, true);
    }

    void createTopic(String topic, int queues, boolean batchCq) {
        topics.createOrUpdate(new TopicUpdate(topic, queues, queues, 6, "SINGLE_TAG", 0, false,
                batchCq ? "+queue.type=BatchCQ" : "")).join();
    }

    /** Waits until dispatch has indexed the queue up to {@code maxOffset}. */
    void awaitMaxOffset(String topic, int queueId, long maxOffset) {
        Await.until(topic + "/" + queueId + " reaching max offset " + maxOffset, 10_000,
                () -> store.maxOffset(topic, queueId) >= maxOffset, () -> store.maxOffset(topic, queueId));
    }

    /** A SEND_MESSAGE_V2 request with the V2 letters. */
    static RemotingCommand sendV2(String topic, int queueId, String properties, byte[] body) {
        return RemotingCommand.request(RequestCode.SEND_MESSAGE_V2)
                .putExtField("a", "pg")
                .putExtField("b", topic)
                .putExtField("c", "TBW102")
                .putExtField("d", "4")
                .putExtField("e", Integer.toString(queueId))
                .putExtField("f", "0")
                .putExtField("g", "1700000000000")
                .putExtField("h", "0")
                .putExtField("i", properties)
                .putExtField("j", "0")
                .putExtField("k", "false")
                .putExtField("m", "false")
                .setBody(body);
    }

    /** A SEND_BATCH_MESSAGE request carrying {@code messages} (properties strings) with header properties. */
    static RemotingCommand sendBatch(String topic, int queueId, String headerProperties, List<String> messages) {
        List<BatchBodyDescriptor.Message> entries = new ArrayList<>();
        for (int i = 0; i < messages.size(); i++) {
            entries.add(new BatchBodyDescriptor.Message(0, ("body-" + i).getBytes(StandardCharsets.UTF_8),
                    messages.get(i)));
        }
        return sendV2(topic, queueId, headerProperties, BatchBodyDescriptor.encode(entries))
                .setCode(RequestCode.SEND_BATCH_MESSAGE)
                .putExtField("m", "true");
    }

    /** An encoded properties string. */
    static String props(String... pairs) {
        Map<String, String> map = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            map.put(pairs[i], pairs[i + 1]);
        }
        return MessageProperties.encode(map);
    }

    RemotingCommand send(RemotingCommand request) {
        try {
            return send.onSend(connection, request).get(10, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new AssertionError("send failed", e);
        }
    }

    /** A PULL_MESSAGE request. */
    static RemotingCommand pullRequest(String group, String topic, int queueId, long offset, int sysFlag) {
        return RemotingCommand.request(RequestCode.PULL_MESSAGE)
                .putExtField("consumerGroup", group)
                .putExtField("topic", topic)
                .putExtField("queueId", Integer.toString(queueId))
                .putExtField("queueOffset", Long.toString(offset))
                .putExtField("maxMsgNums", "32")
                .putExtField("sysFlag", Integer.toString(sysFlag))
                .putExtField("commitOffset", "-1")
                .putExtField("suspendTimeoutMillis", "15000")
                .putExtField("subVersion", "0")
                .putExtField("expressionType", "TAG")
                .putExtField("maxMsgBytes", "262144");
    }

    /** Decodes a pull response body with the Apache client's decoder. */
    static List<MessageExt> decode(RemotingCommand response) {
        return MessageDecoder.decodesBatch(ByteBuffer.wrap(response.body()), true, true, true);
    }

    @Override
    public void close() {
        parking.close();
        timer.shutdownNow();
        pullExecutor.shutdownNow();
        store.close();
        metadata.close();
    }
}
