package io.sluice.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.apache.rocketmq.client.exception.MQBrokerException;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.common.TopicConfig;
import org.apache.rocketmq.common.message.MessageQueue;
import org.apache.rocketmq.remoting.protocol.ResponseCode;
import org.apache.rocketmq.remoting.protocol.subscription.SubscriptionGroupConfig;
import org.apache.rocketmq.tools.admin.DefaultMQAdminExt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Bad admin requests through the unmodified Apache admin API: a topic with no queues, an unknown permission, an
 * illegal or system name, a group with a negative retry count, an unknown topic, the offset of a queue that does not
 * exist. Each is refused with a code and a readable remark (the broker's, passed on by the Apache client, or the
 * client's own where it checks a name first), and none creates or changes a topic, a group or an offset.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class AdminRefusalsIT {

    @TempDir
    Path dir;

    /** The code and remark of a refused admin call. */
    private record Refusal(int code, String remark) {
    }

    /** An admin call that is expected to fail. */
    private interface Call {
        void run() throws Exception;
    }

    private static Refusal refused(Call call) {
        try {
            call.run();
        } catch (MQBrokerException e) {
            return new Refusal(e.getResponseCode(), e.getErrorMessage());
        } catch (MQClientException e) {
            return new Refusal(e.getResponseCode(), e.getErrorMessage());
        } catch (Exception e) {
            throw new AssertionError("not a refusal from the broker", e);
        }
        throw new AssertionError("the broker accepted it");
    }

    private static void assertRefused(Refusal refusal, String... words) {
        assertNotEquals(ResponseCode.SUCCESS, refusal.code(), refusal.toString());
        assertTrue(refusal.remark() != null && !refusal.remark().isBlank(), refusal.toString());
        for (String word : words) {
            assertTrue(refusal.remark().contains(word), word + " in " + refusal);
        }
    }

    @Test
    void badAdminRequestsAreRefusedWithAReasonAndChangeNothing() throws Exception {
        try (EmbeddedCluster cluster = EmbeddedCluster.start(dir, Map.of("autoCreateSubscriptionGroup", "false"))) {
            Broker broker = cluster.broker();
            DefaultMQAdminExt admin = ApacheClients.admin(cluster.namesrvAddr());
            try {
                admin.start();
                String addr = cluster.brokerAddr();
                Set<String> topics = new TreeSet<>(broker.topics().table().topics().keySet());
                int groups = broker.groups().all().size();

                assertRefused(refused(() -> admin.createAndUpdateTopicConfig(addr,
                        new TopicConfig("NoQueues", 0, 0, 6))));
                assertRefused(refused(() -> admin.createAndUpdateTopicConfig(addr,
                        new TopicConfig("BadPerm", 4, 4, 99))));
                assertRefused(refused(() -> admin.createAndUpdateTopicConfig(addr,
                        new TopicConfig("bad topic!", 4, 4, 6))));
                assertRefused(refused(() -> admin.createAndUpdateTopicConfig(addr,
                        new TopicConfig("RMQ_SYS_TRANS_HALF_TOPIC", 4, 4, 6))));
                assertEquals(topics, new TreeSet<>(broker.topics().table().topics().keySet()), "no topic changed");

                SubscriptionGroupConfig negative = new SubscriptionGroupConfig();
                negative.setGroupName("refused-g");
                negative.setRetryMaxTimes(-1);
                assertRefused(refused(() -> admin.createAndUpdateSubscriptionGroupConfig(addr, negative)),
                        "retryMaxTimes");
                assertEquals(groups, broker.groups().all().size(), "no group created");

                Refusal unknownTopic = refused(() -> admin.examineTopicConfig(addr, "NoSuchTopic"));
                assertRefused(unknownTopic);
                assertEquals(ResponseCode.TOPIC_NOT_EXIST, unknownTopic.code());

                admin.createAndUpdateTopicConfig(addr, new TopicConfig("Small", 2, 2, 6));
                SubscriptionGroupConfig group = new SubscriptionGroupConfig();
                group.setGroupName("small-g");
                admin.createAndUpdateSubscriptionGroupConfig(addr, group);
                assertRefused(refused(() -> admin.updateConsumeOffset(addr, "small-g",
                        new MessageQueue("Small", EmbeddedCluster.BROKER_NAME, 7), 0)));
                assertEquals(-1, broker.metadata().queryOffset("small-g", "Small", 7), "no offset stored");
            } finally {
                admin.shutdown();
            }
        }
    }
}
