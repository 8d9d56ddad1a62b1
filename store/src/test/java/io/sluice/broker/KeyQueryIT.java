package io.sluice.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.testing.Await;
import io.sluice.broker.testing.NamesrvAndBroker;
import io.sluice.store.MessageStore;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.commons.cli.CommandLine;
import org.apache.commons.cli.DefaultParser;
import org.apache.commons.cli.Options;
import org.apache.rocketmq.client.QueryResult;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.MixAll;
import org.apache.rocketmq.common.TopicConfig;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.srvutil.ServerUtil;
import org.apache.rocketmq.tools.admin.DefaultMQAdminExt;
import org.apache.rocketmq.tools.command.SubCommand;
import org.apache.rocketmq.tools.command.message.QueryMsgByKeySubCommand;
import org.apache.rocketmq.tools.command.message.QueryMsgByUniqueKeySubCommand;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * QUERY_MESSAGE through the key index with Apache's admin API and mqadmin's queryMsgByKey and
 * queryMsgByUniqueKey: a message is found by key and by unique key with more than 200,000 records stored after
 * it (the limit of the scan the index replaced), and one stored after them too.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class KeyQueryIT {

    private static final String TOPIC = "KeyQueryTopic";
    private static final int FILLER = 201_000;
    private static final int BATCH = 1_000;

    @TempDir
    Path dir;

    @Test
    void adminAndMqadminFindMessagesByKeyAndUniqueKeyBeyond200000Records() throws Exception {
        try (NamesrvAndBroker cluster = NamesrvAndBroker.start(dir, Map.of())) {
            DefaultMQAdminExt admin = ApacheClients.admin(cluster.namesrvAddr());
            DefaultMQProducer producer = ApacheClients.producer(cluster.namesrvAddr(), "key-query-pg");
            try {
                admin.start();
                admin.createAndUpdateTopicConfig(cluster.brokerAddr(), new TopicConfig(TOPIC, 1, 1, 6));
                producer.start();
                SendResult old = producer.send(new Message(TOPIC, "TagA", "order-old customer-7",
                        "old".getBytes(StandardCharsets.UTF_8)));
                assertEquals(SendStatus.SEND_OK, old.getSendStatus());
                for (int sent = 0; sent < FILLER; sent += BATCH) {
                    List<Message> batch = new ArrayList<>(BATCH);
                    for (int i = 0; i < BATCH; i++) {
                        batch.add(new Message(TOPIC, ("f" + (sent + i)).getBytes(StandardCharsets.UTF_8)));
                    }
                    assertEquals(SendStatus.SEND_OK, producer.send(batch).getSendStatus());
                }
                SendResult recent = producer.send(new Message(TOPIC, "TagA", "order-new customer-7",
                        "new".getBytes(StandardCharsets.UTF_8)));
                MessageStore store = cluster.broker().store();
                Await.until("the key index caught up", 60_000, () -> store.keyIndexStats().indexedPosition()
                        >= store.stats().writtenPosition(), store::keyIndexStats);

                assertEquals(List.of("old"), bodies(admin.queryMessage(TOPIC, "order-old", 32, 0, Long.MAX_VALUE)));
                assertEquals(List.of("new"), bodies(admin.queryMessage(TOPIC, "order-new", 32, 0, Long.MAX_VALUE)));
                List<String> both = bodies(admin.queryMessage(TOPIC, "customer-7", 32, 0, Long.MAX_VALUE));
                assertEquals(2, both.size(), both.toString());
                assertTrue(both.containsAll(List.of("old", "new")), both.toString());
                MessageExt byId = admin.queryMessageByUniqKey(null, TOPIC, old.getMsgId(), 32, 0, Long.MAX_VALUE)
                        .getMessageList().get(0);
                assertEquals("old", new String(byId.getBody(), StandardCharsets.UTF_8));
                assertEquals(old.getMsgId(), byId.getMsgId());
                assertEquals("old", new String(admin.viewMessage(TOPIC, old.getMsgId()).getBody(),
                        StandardCharsets.UTF_8), "viewMessage by the client's message id");

                long oldStored = byId.getStoreTimestamp();
                assertThrows(MQClientException.class, () -> admin.queryMessage(TOPIC, "order-old", 32,
                        oldStored + 1, Long.MAX_VALUE), "stored before the time range");
                assertThrows(MQClientException.class, () -> admin.queryMessage(TOPIC, "order-missing", 32, 0,
                        Long.MAX_VALUE));

                String byKey = mqadmin(cluster, new QueryMsgByKeySubCommand(), "-t", TOPIC, "-k", "order-old");
                assertTrue(byKey.contains(old.getMsgId()), byKey);
                String byUniqueKey = mqadmin(cluster, new QueryMsgByUniqueKeySubCommand(), "-t", TOPIC, "-i",
                        recent.getMsgId());
                assertTrue(byUniqueKey.contains("order-new"), byUniqueKey);
                assertTrue(byUniqueKey.contains(recent.getMsgId()), byUniqueKey);
            } finally {
                producer.shutdown();
                admin.shutdown();
            }
        }
    }

    private static List<String> bodies(QueryResult result) {
        List<String> out = new ArrayList<>();
        for (MessageExt m : result.getMessageList()) {
            out.add(new String(m.getBody(), StandardCharsets.UTF_8));
        }
        return out;
    }

    /** Runs an mqadmin sub-command as {@code mqadmin -n NAMESRV} does, in this JVM; returns what it printed. */
    static String mqadmin(NamesrvAndBroker cluster, SubCommand command, String... args) throws Exception {
        Options options = command.buildCommandlineOptions(ServerUtil.buildCommandlineOptions(new Options()));
        CommandLine line = ServerUtil.parseCmdLine("mqadmin " + command.commandName(), args, options,
                new DefaultParser());
        assertNotNull(line, "mqadmin arguments");
        PrintStream stdout = System.out;
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        String previousNamesrv = System.getProperty(MixAll.NAMESRV_ADDR_PROPERTY);
        System.setProperty(MixAll.NAMESRV_ADDR_PROPERTY, cluster.namesrvAddr());
        System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
        try {
            command.execute(line, options, null);
        } finally {
            System.setOut(stdout);
            if (previousNamesrv == null) {
                System.clearProperty(MixAll.NAMESRV_ADDR_PROPERTY);
            } else {
                System.setProperty(MixAll.NAMESRV_ADDR_PROPERTY, previousNamesrv);
            }
        }
        return printed.toString(StandardCharsets.UTF_8);
    }
}
