package io.sluice.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.remoting.protocol.RemotingCommand;
import io.sluice.remoting.protocol.RequestCode;
import io.sluice.remoting.protocol.ResponseCode;
import io.sluice.remoting.transport.ClientSettings;
import io.sluice.remoting.transport.RemotingClient;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every request code the protocol names, sent to a running broker without its header fields, with every field a
 * word where a number belongs, and with every number negative: each is answered (no timeout), a refusal carries a
 * readable remark rather than a Java exception's name, nothing reaches the CommitLog, no topic or group is
 * created, and the broker keeps answering.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class BrokerRequestFuzzIT {

    /** The header fields the broker's requests read, each set at once so every handler finds its own. */
    private static final List<String> FIELDS = List.of("topic", "queueId", "consumerGroup", "group", "groupName",
            "offset", "queueOffset", "commitOffset", "timestamp", "producerGroup", "tranStateTableOffset",
            "commitLogOffset", "msgId", "key", "maxNum", "beginTimestamp", "endTimestamp", "clientId", "brokerName",
            "readQueueNums", "writeQueueNums", "perm", "topicFilterType", "topicSysFlag", "order", "attributes",
            "maxMsgNums", "sysFlag", "suspendTimeoutMillis", "subscription", "subVersion", "expressionType",
            "maxMsgBytes", "delayLevel", "originMsgId", "originTopic", "unitMode", "maxReconsumeTimes", "cleanOffset",
            "isForce", "defaultTopic", "defaultTopicQueueNums", "bornTimestamp", "flag", "properties",
            "reconsumeTimes", "batch", "commitOrRollback", "fromTransactionCheck", "transactionId", "index", "count",
            "a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l", "m", "n");

    /** What a leaked exception looks like as a remark: {@code java.lang.NullPointerException: ...}. */
    private static final Pattern EXCEPTION_NAME =
            Pattern.compile("\\b([a-z][a-z0-9_]*\\.)+[A-Z]\\w*(Exception|Error)\\b");

    @TempDir
    Path dir;

    private EmbeddedCluster cluster;
    private RemotingClient client;

    @BeforeEach
    void start() throws Exception {
        cluster = EmbeddedCluster.start(dir, Map.of("autoCreateTopicEnable", "false",
                "autoCreateSubscriptionGroup", "false"));
        client = new RemotingClient(ClientSettings.defaults());
    }

    @AfterEach
    void stop() {
        try {
            client.close();
        } finally {
            cluster.close();
        }
    }

    @Test
    void everyRequestCodeWithBadOrMissingFieldsIsAnsweredClearlyAndStoresNothing() throws Exception {
        Broker broker = cluster.broker();
        long logEnd = broker.store().logEndPosition();
        Set<String> topics = new TreeSet<>(broker.topics().table().topics().keySet());
        int groups = broker.groups().all().size();
        Map<String, String> leaks = new TreeMap<>();
        int sent = 0;
        for (Map.Entry<String, Integer> code : requestCodes().entrySet()) {
            for (String variant : List.of("none", "words", "negative")) {
                RemotingCommand request = request(code.getValue(), variant);
                RemotingCommand answer = client.invoke(cluster.brokerAddr(), request, 5_000)
                        .get(10, TimeUnit.SECONDS);
                sent++;
                String what = code.getKey() + " (" + code.getValue() + ") with " + variant + " fields";
                if (answer.code() != ResponseCode.SUCCESS) {
                    String remark = answer.remark() == null ? "" : answer.remark();
                    if (remark.isBlank() || EXCEPTION_NAME.matcher(remark).find()) {
                        leaks.put(what, answer.code() + " '" + remark + "'");
                    }
                }
            }
        }
        assertTrue(leaks.isEmpty(), "answers without a readable remark: " + leaks);
        assertTrue(sent > 150, "sent " + sent);
        assertEquals(logEnd, broker.store().logEndPosition(), "nothing was stored");
        assertEquals(topics, new TreeSet<>(broker.topics().table().topics().keySet()), "no topic was created");
        assertEquals(groups, broker.groups().all().size(), "no group was created");
        RemotingCommand maxOffset = RemotingCommand.request(RequestCode.GET_MAX_OFFSET).putExtField("topic", "none")
                .putExtField("queueId", "0");
        RemotingCommand healthy = client.invoke(cluster.brokerAddr(), maxOffset, 5_000).get(10, TimeUnit.SECONDS);
        assertEquals(ResponseCode.SUCCESS, healthy.code());
    }

    private static RemotingCommand request(int code, String variant) {
        RemotingCommand request = RemotingCommand.request(code);
        switch (variant) {
            case "words" -> {
                FIELDS.forEach(field -> request.putExtField(field, "x"));
                request.setBody("x".getBytes(StandardCharsets.UTF_8));
            }
            case "negative" -> {
                FIELDS.forEach(field -> request.putExtField(field, "-1"));
                request.setBody("{}".getBytes(StandardCharsets.UTF_8));
            }
            default -> {
            }
        }
        return request;
    }

    private static Map<String, Integer> requestCodes() throws IllegalAccessException {
        Map<String, Integer> codes = new TreeMap<>();
        for (Field field : RequestCode.class.getFields()) {
            if (Modifier.isStatic(field.getModifiers()) && field.getType() == int.class) {
                codes.put(field.getName(), field.getInt(null));
            }
        }
        assertTrue(codes.size() > 40, "request codes found: " + codes.keySet());
        return codes;
    }
}
