package io.sluice.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.testing.Await;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.commons.cli.CommandLine;
import org.apache.commons.cli.DefaultParser;
import org.apache.commons.cli.Options;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.exception.MQBrokerException;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.common.TopicConfig;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageQueue;
import org.apache.rocketmq.remoting.protocol.ResponseCode;
import org.apache.rocketmq.remoting.protocol.admin.ConsumeStats;
import org.apache.rocketmq.remoting.protocol.body.BrokerStatsData;
import org.apache.rocketmq.remoting.protocol.body.CMResult;
import org.apache.rocketmq.remoting.protocol.body.ConsumeMessageDirectlyResult;
import org.apache.rocketmq.remoting.protocol.body.ConsumeStatsList;
import org.apache.rocketmq.remoting.protocol.body.ConsumerRunningInfo;
import org.apache.rocketmq.remoting.protocol.body.ProducerTableInfo;
import org.apache.rocketmq.remoting.protocol.subscription.SubscriptionGroupConfig;
import org.apache.rocketmq.srvutil.ServerUtil;
import org.apache.rocketmq.tools.admin.DefaultMQAdminExt;
import org.apache.rocketmq.tools.command.offset.ResetOffsetByTimeCommand;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The admin requests Apache's mqadmin, rocketmq-dashboard and proxy send beyond topics, each through the unmodified
 * Apache admin API (and resetOffsetByTime through the real mqadmin sub-command, in-process): subscription groups (200, 201,
 * 352, 207), consumer insight (300, 307, 309, 315, 317, 328), offset resets online and offline (222) and runtime
 * settings (25).
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class AdminOpsIT {

    private static final String TOPIC = "OpsTopic";
    private static final int QUEUES = 4;
    private static final int MESSAGES = 20;

    @TempDir
    Path dir;

    @Test
    void subscriptionGroupsAndRuntimeSettingsAreServedAndSurviveARestart() throws Exception {
        try (EmbeddedCluster cluster = EmbeddedCluster.start(dir)) {
            DefaultMQAdminExt admin = ApacheClients.admin(cluster.namesrvAddr());
            try {
                admin.start();
                String addr = cluster.brokerAddr();
                admin.createAndUpdateTopicConfig(addr, new TopicConfig(TOPIC, QUEUES, QUEUES, 6));
                SubscriptionGroupConfig group = new SubscriptionGroupConfig();
                group.setGroupName("ops-g");
                group.setRetryMaxTimes(5);
                group.setConsumeMessageOrderly(true);
                admin.createAndUpdateSubscriptionGroupConfig(addr, group);
                assertEquals(5, admin.examineSubscriptionGroupConfig(addr, "ops-g").getRetryMaxTimes());
                assertTrue(groupConfig(admin, addr, "ops-g").isConsumeMessageOrderly());
                assertTrue(admin.getAllSubscriptionGroup(addr, 10_000).getSubscriptionGroupTable()
                        .containsKey("ops-g"));
                admin.updateConsumeOffset(addr, "ops-g", new MessageQueue(TOPIC, EmbeddedCluster.BROKER_NAME, 1), 0);
                assertTrue(admin.queryTopicConsumeByWho(TOPIC).getGroupList().contains("ops-g"));

                Properties change = new Properties();
                change.setProperty("autoCreateSubscriptionGroup", "false");
                change.setProperty("clientChannelExpiredTimeoutMs", "60000");
                admin.updateBrokerConfig(addr, change);
                assertEquals("false", admin.getBrokerConfig(addr).getProperty("autoCreateSubscriptionGroup"));
                Properties fixed = new Properties();
                fixed.setProperty("listenPort", "1");
                MQBrokerException refused = assertThrows(MQBrokerException.class,
                        () -> admin.updateBrokerConfig(addr, fixed));
                assertTrue(refused.getErrorMessage().contains("listenPort"), refused.getErrorMessage());

                cluster.restartBroker();
                String restarted = cluster.brokerAddr();
                assertEquals(5, groupConfig(admin, restarted, "ops-g").getRetryMaxTimes());
                Properties afterRestart = admin.getBrokerConfig(restarted);
                assertEquals("false", afterRestart.getProperty("autoCreateSubscriptionGroup"));
                assertEquals("60000", afterRestart.getProperty("clientChannelExpiredTimeoutMs"));

                admin.deleteSubscriptionGroup(restarted, "ops-g", true);
                MQBrokerException gone = assertThrows(MQBrokerException.class,
                        () -> groupConfig(admin, restarted, "ops-g"));
                assertEquals(ResponseCode.SUBSCRIPTION_GROUP_NOT_EXIST, gone.getResponseCode());
                assertNull(admin.examineSubscriptionGroupConfig(restarted, "ops-g"));
                assertFalse(admin.queryTopicConsumeByWho(TOPIC).getGroupList().contains("ops-g"),
                        "the group's offsets went with it");
            } finally {
                admin.shutdown();
            }
        }
    }

    @Test
    void liveConsumerIsSeenAskedAndMovedBackByAnOnlineReset() throws Exception {
        try (EmbeddedCluster cluster = EmbeddedCluster.start(dir)) {
            DefaultMQAdminExt admin = ApacheClients.admin(cluster.namesrvAddr());
            DefaultMQProducer producer = ApacheClients.producer(cluster.namesrvAddr(), "ops-pg");
            DefaultMQPushConsumer consumer = ApacheClients.pushConsumer(cluster.namesrvAddr(), "ops-cg");
            AtomicInteger received = new AtomicInteger();
            try {
                admin.start();
                String addr = cluster.brokerAddr();
                admin.createAndUpdateTopicConfig(addr, new TopicConfig(TOPIC, QUEUES, QUEUES, 6));
                producer.start();
                List<SendResult> sent = send(producer, MESSAGES);
                ApacheClients.consumeCounting(consumer, TOPIC, received, MESSAGES);
                Await.until("the group's offsets are committed", 30_000, () -> totalDiff(admin, addr) == 0,
                        () -> totalDiff(admin, addr));

                ProducerTableInfo producers = admin.getAllProducerInfo(addr);
                assertEquals(1, producers.getData().get("ops-pg").size());
                assertTrue(admin.queryTopicConsumeByWho(TOPIC).getGroupList().contains("ops-cg"));

                String clientId = admin.examineConsumerConnectionInfo("ops-cg").getConnectionSet().iterator().next()
                        .getClientId();
                ConsumerRunningInfo running = admin.getConsumerRunningInfo("ops-cg", clientId, false);
                assertNotNull(running);
                assertTrue(running.getSubscriptionSet().stream().anyMatch(s -> s.getTopic().equals(TOPIC)));
                assertEquals(QUEUES, running.getMqTable().keySet().stream()
                        .filter(mq -> mq.getTopic().equals(TOPIC)).count());
                ConsumeMessageDirectlyResult direct = admin.consumeMessageDirectly("ops-cg", clientId, TOPIC,
                        sent.get(0).getOffsetMsgId());
                assertEquals(CMResult.CR_SUCCESS, direct.getConsumeResult());

                BrokerStatsData puts = admin.viewBrokerStatsData(addr, "TOPIC_PUT_NUMS", TOPIC);
                assertEquals(MESSAGES, puts.getStatsDay().getSum());
                BrokerStatsData gets = admin.viewBrokerStatsData(addr, "GROUP_GET_NUMS", TOPIC + "@ops-cg");
                assertTrue(gets.getStatsDay().getSum() >= MESSAGES, "got " + gets.getStatsDay().getSum());
                assertThrows(Exception.class, () -> admin.viewBrokerStatsData(addr, "NO_SUCH_STATS", TOPIC));

                int before = received.get();
                Map<MessageQueue, Long> reset = admin.resetOffsetByTimestamp(TOPIC, "ops-cg", 0, true);
                assertEquals(QUEUES, reset.size());
                reset.values().forEach(offset -> assertEquals(0L, offset));
                // The next pull of each queue moves the consumer back; Apache's client re-reads the queue after it.
                Await.until("the reset messages are consumed again", 60_000,
                        () -> received.get() >= before + MESSAGES, received::get);
                Await.until("the group's offsets are committed again", 30_000, () -> totalDiff(admin, addr) == 0,
                        () -> totalDiff(admin, addr));
            } finally {
                consumer.shutdown();
                producer.shutdown();
                admin.shutdown();
            }
        }
    }

    @Test
    void mqadminResetOffsetByTimeMovesAnOfflineGroup() throws Exception {
        try (EmbeddedCluster cluster = EmbeddedCluster.start(dir)) {
            DefaultMQAdminExt admin = ApacheClients.admin(cluster.namesrvAddr());
            DefaultMQProducer producer = ApacheClients.producer(cluster.namesrvAddr(), "ops-pg");
            try {
                admin.start();
                String addr = cluster.brokerAddr();
                admin.createAndUpdateTopicConfig(addr, new TopicConfig(TOPIC, QUEUES, QUEUES, 6));
                SubscriptionGroupConfig group = new SubscriptionGroupConfig();
                group.setGroupName("ops-offline");
                admin.createAndUpdateSubscriptionGroupConfig(addr, group);
                producer.start();
                send(producer, MESSAGES);
                Await.until("every message is indexed", 30_000, () -> maxOffsets(admin) == MESSAGES,
                        () -> maxOffsets(admin));
                long firstHalfEndMs = System.currentTimeMillis();
                for (int q = 0; q < QUEUES; q++) {
                    MessageQueue mq = new MessageQueue(TOPIC, EmbeddedCluster.BROKER_NAME, q);
                    admin.updateConsumeOffset(addr, "ops-offline", mq, admin.maxOffset(mq));
                }
                assertEquals(0, groupDiff(admin, addr, "ops-offline"));

                mqadmin(new ResetOffsetByTimeCommand(), "-n", cluster.namesrvAddr(), "-g", "ops-offline",
                        "-t", TOPIC, "-s", "0");
                assertEquals(MESSAGES, groupDiff(admin, addr, "ops-offline"), "back to the first offsets");

                send(producer, MESSAGES);
                long sinceMs = firstHalfEndMs + 1;
                Map<MessageQueue, Long> moved = admin.resetOffsetByTimestamp(TOPIC, "ops-offline", sinceMs, true);
                assertEquals(QUEUES, moved.size());
                assertEquals(MESSAGES, groupDiff(admin, addr, "ops-offline"), "only the second batch is left");
            } finally {
                producer.shutdown();
                admin.shutdown();
            }
        }
    }

    private static List<SendResult> send(DefaultMQProducer producer, int count) throws Exception {
        List<SendResult> sent = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            sent.add(producer.send(new Message(TOPIC, "TagA", "key-" + i,
                    ("body-" + i).getBytes(StandardCharsets.UTF_8))));
        }
        return sent;
    }

    /** GET_SUBSCRIPTIONGROUP_CONFIG (352) through the admin's client API, as Apache's proxy asks for a group. */
    private static SubscriptionGroupConfig groupConfig(DefaultMQAdminExt admin, String addr, String group)
            throws Exception {
        return admin.getDefaultMQAdminExtImpl().getMqClientInstance().getMQClientAPIImpl()
                .getSubscriptionGroupConfig(addr, group, 10_000);
    }

    /** Runs an mqadmin sub-command as {@code mqadmin} does, in this JVM. */
    private static void mqadmin(org.apache.rocketmq.tools.command.SubCommand command, String... args)
            throws Exception {
        Options options = command.buildCommandlineOptions(ServerUtil.buildCommandlineOptions(new Options()));
        CommandLine line = ServerUtil.parseCmdLine("mqadmin " + command.commandName(), args, options,
                new DefaultParser());
        assertNotNull(line, "mqadmin arguments");
        command.execute(line, options, null);
    }

    private static long maxOffsets(DefaultMQAdminExt admin) {
        try {
            return admin.examineTopicStats(TOPIC).getOffsetTable().values().stream()
                    .mapToLong(o -> o.getMaxOffset()).sum();
        } catch (Exception e) {
            return -1;
        }
    }

    /** The broker's total lag over every group (GET_BROKER_CONSUME_STATS), or -1 while it cannot be read. */
    private static long totalDiff(DefaultMQAdminExt admin, String addr) {
        try {
            ConsumeStatsList list = admin.fetchConsumeStatsInBroker(addr, false, 10_000);
            return list.getConsumeStatsList().isEmpty() ? -1 : list.getTotalDiff();
        } catch (Exception e) {
            return -1;
        }
    }

    /** One group's lag on the topic from GET_BROKER_CONSUME_STATS. */
    private static long groupDiff(DefaultMQAdminExt admin, String addr, String group) throws Exception {
        ConsumeStatsList list = admin.fetchConsumeStatsInBroker(addr, false, 10_000);
        long diff = 0;
        for (Map<String, List<ConsumeStats>> entry : list.getConsumeStatsList()) {
            for (ConsumeStats stats : entry.getOrDefault(group, List.of())) {
                diff += stats.computeTotalDiff();
            }
        }
        return diff;
    }
}
