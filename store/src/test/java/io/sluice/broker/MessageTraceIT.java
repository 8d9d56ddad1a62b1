package io.sluice.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.testing.Await;
import io.sluice.broker.testing.NamesrvAndBroker;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.client.trace.TraceContext;
import org.apache.rocketmq.client.trace.TraceDataEncoder;
import org.apache.rocketmq.client.trace.TraceType;
import org.apache.rocketmq.common.TopicConfig;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.common.topic.TopicValidator;
import org.apache.rocketmq.tools.admin.DefaultMQAdminExt;
import org.apache.rocketmq.tools.command.message.QueryMsgTraceByIdSubCommand;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Message trace with the Apache client: a producer and a push consumer with {@code enableMsgTrace} send their
 * traces to the default trace topic, which the broker provides, and mqadmin's {@code queryMsgTraceById} finds them
 * through the key index (a trace record's keys are the traced message ids).
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class MessageTraceIT {

    private static final String TOPIC = "TracedTopic";

    @TempDir
    Path dir;

    @Test
    void tracesOfASendAndItsConsumptionAreStoredAndFoundById() throws Exception {
        try (NamesrvAndBroker cluster = NamesrvAndBroker.start(dir, Map.of())) {
            DefaultMQAdminExt admin = ApacheClients.admin(cluster.namesrvAddr());
            DefaultMQProducer producer = new DefaultMQProducer("trace-pg", true, null);
            producer.setNamesrvAddr(cluster.namesrvAddr());
            producer.setInstanceName(ApacheClients.instance("trace-producer"));
            DefaultMQPushConsumer consumer = new DefaultMQPushConsumer("trace-cg", true, null);
            consumer.setNamesrvAddr(cluster.namesrvAddr());
            consumer.setInstanceName(ApacheClients.instance("trace-consumer"));
            consumer.setPollNameServerInterval(1_000);
            consumer.setHeartbeatBrokerInterval(1_000);
            try {
                admin.start();
                admin.createAndUpdateTopicConfig(cluster.brokerAddr(), new TopicConfig(TOPIC, 2, 2, 6));
                producer.start();
                SendResult sent = producer.send(new Message(TOPIC, "TagA", "traced-key",
                        "traced".getBytes(StandardCharsets.UTF_8)));
                assertEquals(SendStatus.SEND_OK, sent.getSendStatus());
                ApacheClients.consumeCounting(consumer, TOPIC, new AtomicInteger(), 1);

                Set<TraceType> types = EnumSet.noneOf(TraceType.class);
                Set<TraceType> expected = EnumSet.of(TraceType.Pub, TraceType.SubBefore, TraceType.SubAfter);
                Await.until("the send's and the consumption's traces are found", 60_000, () -> {
                    types.addAll(traceTypes(admin, sent.getMsgId()));
                    return types.containsAll(expected);
                }, () -> types);

                String printed = KeyQueryIT.mqadmin(cluster, new QueryMsgTraceByIdSubCommand(), "-i",
                        sent.getMsgId());
                assertTrue(printed.contains("Pub") && printed.contains("trace-pg"), printed);
                assertTrue(printed.contains("Sub ") && printed.contains("trace-cg"), printed);
            } finally {
                consumer.shutdown();
                producer.shutdown();
                admin.shutdown();
            }
        }
    }

    /** The trace types stored for {@code msgId}, as queryMsgTraceById reads them; empty while none is stored. */
    private static Set<TraceType> traceTypes(DefaultMQAdminExt admin, String msgId) {
        Set<TraceType> types = EnumSet.noneOf(TraceType.class);
        try {
            for (MessageExt trace : admin.queryMessage(TopicValidator.RMQ_SYS_TRACE_TOPIC, msgId, 64, 0,
                    Long.MAX_VALUE).getMessageList()) {
                for (TraceContext context : TraceDataEncoder.decoderFromTraceDataString(
                        new String(trace.getBody(), StandardCharsets.UTF_8))) {
                    if (context.getTraceBeans().stream().anyMatch(b -> msgId.equals(b.getMsgId()))) {
                        types.add(context.getTraceType());
                    }
                }
            }
        } catch (MQClientException notYet) {
            return types;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return types;
    }
}
