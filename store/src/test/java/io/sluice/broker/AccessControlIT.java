package io.sluice.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.broker.auth.Action;
import io.sluice.broker.auth.AuthStore;
import io.sluice.broker.auth.Decision;
import io.sluice.broker.auth.PolicyEntry;
import io.sluice.broker.auth.ResourcePattern;
import io.sluice.broker.auth.User;
import io.sluice.broker.auth.UserType;
import io.sluice.testing.Await;
import io.sluice.broker.testing.NamesrvAndBroker;
import io.sluice.remoting.transport.ClientSettings;
import io.sluice.remoting.transport.Credentials;
import io.sluice.remoting.transport.RemotingClient;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.apache.rocketmq.acl.common.AclClientRPCHook;
import org.apache.rocketmq.acl.common.SessionCredentials;
import org.apache.rocketmq.client.consumer.DefaultMQPullConsumer;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyStatus;
import org.apache.rocketmq.client.consumer.listener.MessageListenerConcurrently;
import org.apache.rocketmq.client.exception.MQBrokerException;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.TopicConfig;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageQueue;
import org.apache.rocketmq.remoting.RPCHook;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;
import org.apache.rocketmq.remoting.protocol.RequestCode;
import org.apache.rocketmq.remoting.protocol.ResponseCode;
import org.apache.rocketmq.tools.admin.DefaultMQAdminExt;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;

/**
 * Authentication and authorization with the unmodified Apache 5.3 client signing with {@code AclClientRPCHook}:
 * produce and consume with permissions; denied produce, consume and topic creation; a wrong secret, an unsigned
 * request and a request changed after signing are refused and store nothing; a policy change applies to the next
 * request. One broker for the class, with {@code initAuthenticationUser} as the administrator.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class AccessControlIT {

    private static final String TOPIC = "Guarded";
    private static final String ADMIN = "root";
    private static final String ADMIN_SECRET = "root-secret";

    @TempDir
    static Path dir;

    private static NamesrvAndBroker cluster;
    private static AuthStore auth;

    @BeforeAll
    static void start() throws Exception {
        cluster = NamesrvAndBroker.start(dir, Map.of("authenticationEnabled", "true", "authorizationEnabled", "true",
                "initAuthenticationUser", "{\"username\":\"" + ADMIN + "\",\"password\":\"" + ADMIN_SECRET + "\"}"));
        auth = cluster.broker().auth().orElseThrow();
        DefaultMQAdminExt admin = admin(ADMIN, ADMIN_SECRET);
        admin.start();
        try {
            admin.createAndUpdateTopicConfig(cluster.brokerAddr(), new TopicConfig(TOPIC, 1, 1, 6));
        } finally {
            admin.shutdown();
        }
        auth.putUser(new User("alice", "alice-secret", UserType.NORMAL));
        auth.putPolicy("User:alice", List.of(allow("Topic:" + TOPIC, Action.PUB, Action.SUB),
                allow("Group:alice-*", Action.SUB)));
        auth.putUser(new User("bob", "bob-secret", UserType.NORMAL));
        auth.putPolicy("User:bob", List.of(allow("Topic:" + TOPIC, Action.SUB), allow("Group:*", Action.SUB)));
    }

    @AfterAll
    static void stop() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void theBrokerConfigShowsNoSecret() throws Exception {
        DefaultMQAdminExt admin = admin(ADMIN, ADMIN_SECRET);
        admin.start();
        try {
            java.util.Properties config = admin.getBrokerConfig(cluster.brokerAddr());
            assertEquals("******", config.getProperty("initAuthenticationUser"));
            assertTrue(config.getProperty("authenticationEnabled") != null, "the other keys are there");
        } finally {
            admin.shutdown();
        }
    }

    private static PolicyEntry allow(String resource, Action... actions) {
        return new PolicyEntry(ResourcePattern.parse(resource), EnumSet.copyOf(List.of(actions)), List.of(),
                Decision.ALLOW);
    }

    private static RPCHook signer(String user, String secret) {
        return new AclClientRPCHook(new SessionCredentials(user, secret));
    }

    private static DefaultMQAdminExt admin(String user, String secret) {
        DefaultMQAdminExt admin = new DefaultMQAdminExt(signer(user, secret), 10_000);
        admin.setNamesrvAddr(cluster.namesrvAddr());
        admin.setInstanceName(ApacheClients.instance("admin"));
        return admin;
    }

    private static DefaultMQProducer producer(RPCHook hook) {
        DefaultMQProducer producer = new DefaultMQProducer("acl-pg", hook);
        producer.setNamesrvAddr(cluster.namesrvAddr());
        producer.setInstanceName(ApacheClients.instance("producer"));
        producer.setSendMsgTimeout(5_000);
        producer.setRetryTimesWhenSendFailed(0);
        return producer;
    }

    private static Message message(String body) {
        return new Message(TOPIC, body.getBytes(StandardCharsets.UTF_8));
    }

    private static long stored() {
        return cluster.broker().store().maxOffset(TOPIC, 0);
    }

    /** Sends one message with {@code hook} and returns the broker's refusal. */
    private static MQBrokerException refusedSend(RPCHook hook) throws Exception {
        DefaultMQProducer producer = producer(hook);
        producer.start();
        try {
            return refusal(() -> producer.send(message("refused")));
        } finally {
            producer.shutdown();
        }
    }

    /**
     * The broker's refusal behind a failed call: Apache's producer retries NO_PERMISSION like other retryable codes
     * and then reports it wrapped in an MQClientException; its other calls throw the MQBrokerException itself.
     */
    private static MQBrokerException refusal(Executable call) {
        Throwable thrown = assertThrows(Exception.class, call);
        Throwable cause = thrown;
        while (cause != null && !(cause instanceof MQBrokerException)) {
            cause = cause.getCause();
        }
        assertNotNull(cause, "not a broker refusal: " + thrown);
        return (MQBrokerException) cause;
    }

    /** Signs as {@code signer} does and keeps the broker's answer to each UNREGISTER_CLIENT, by group. */
    private static final class UnregisterAnswers implements RPCHook {
        private final RPCHook signer;
        private final Map<String, Integer> codeByGroup = new ConcurrentHashMap<>();

        UnregisterAnswers(RPCHook signer) {
            this.signer = signer;
        }

        @Override
        public void doBeforeRequest(String remoteAddr, RemotingCommand request) {
            signer.doBeforeRequest(remoteAddr, request);
        }

        @Override
        public void doAfterResponse(String remoteAddr, RemotingCommand request, RemotingCommand response) {
            if (request.getCode() == RequestCode.UNREGISTER_CLIENT && response != null) {
                Map<String, String> fields = request.getExtFields();
                String group = fields.containsKey("consumerGroup") ? "consumer " + fields.get("consumerGroup")
                        : "producer " + fields.get("producerGroup");
                codeByGroup.put(group, response.getCode());
            }
        }
    }

    /**
     * Alice has Pub and Sub on the topic and Sub on her consumer group only, no permission on any producer group:
     * her clients still leave the broker cleanly, as under Apache's ACL 2.0.
     */
    @Test
    void aPermittedUserProducesAndConsumes() throws Exception {
        UnregisterAnswers answers = new UnregisterAnswers(signer("alice", "alice-secret"));
        DefaultMQProducer producer = producer(answers);
        DefaultMQPushConsumer consumer = ApacheClients.pushConsumer(cluster.namesrvAddr(), "alice-readers", answers);
        Set<String> received = ConcurrentHashMap.newKeySet();
        try {
            producer.start();
            for (int i = 0; i < 5; i++) {
                assertEquals(SendStatus.SEND_OK, producer.send(message("signed-" + i)).getSendStatus());
            }
            consumer.subscribe(TOPIC, "*");
            consumer.registerMessageListener((MessageListenerConcurrently) (messages, context) -> {
                messages.forEach(m -> received.add(new String(m.getBody(), StandardCharsets.UTF_8)));
                return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
            });
            consumer.start();
            Await.until("alice consumes her 5 messages", () -> received.containsAll(
                    List.of("signed-0", "signed-1", "signed-2", "signed-3", "signed-4")));
        } finally {
            consumer.shutdown();
            producer.shutdown();
        }
        Integer success = ResponseCode.SUCCESS;
        assertEquals(Map.of("producer acl-pg", success, "producer CLIENT_INNER_PRODUCER", success,
                "consumer alice-readers", success), answers.codeByGroup,
                "every group the clients leave at shutdown is unregistered without NO_PERMISSION");
    }

    @Test
    void aProduceWithoutPubPermissionIsRefusedNamingResourceAndAction() throws Exception {
        long before = stored();
        MQBrokerException refused = refusedSend(signer("bob", "bob-secret"));
        assertEquals(ResponseCode.NO_PERMISSION, refused.getResponseCode());
        assertTrue(refused.getErrorMessage().contains("User:bob") && refused.getErrorMessage().contains("Pub")
                && refused.getErrorMessage().contains("Topic:" + TOPIC), refused.getErrorMessage());
        assertEquals(before, stored(), "a refused send stores nothing");
    }

    @Test
    @SuppressWarnings("deprecation") // DefaultMQPullConsumer: the Apache consumer that reports a refused pull
    void aPullWithoutSubPermissionIsRefused() throws Exception {
        auth.putUser(new User("carol", "carol-secret", UserType.NORMAL));
        auth.putPolicy("User:carol", List.of(allow("Topic:" + TOPIC, Action.PUB), allow("Group:*", Action.SUB)));
        DefaultMQPullConsumer consumer = new DefaultMQPullConsumer("carol-readers", signer("carol", "carol-secret"));
        consumer.setNamesrvAddr(cluster.namesrvAddr());
        consumer.setInstanceName(ApacheClients.instance("pull"));
        consumer.start();
        try {
            MessageQueue queue = new MessageQueue(TOPIC, cluster.broker().settings().brokerName(), 0);
            MQBrokerException refused = assertThrows(MQBrokerException.class,
                    () -> consumer.pull(queue, "*", 0, 32, 5_000));
            assertEquals(ResponseCode.NO_PERMISSION, refused.getResponseCode());
            assertTrue(refused.getErrorMessage().contains("Sub") && refused.getErrorMessage().contains("Topic:"
                    + TOPIC), refused.getErrorMessage());
        } finally {
            consumer.shutdown();
        }
    }

    @Test
    void topicCreationWithoutCreatePermissionIsRefused() throws Exception {
        DefaultMQAdminExt admin = admin("alice", "alice-secret");
        admin.start();
        try {
            MQClientException refused = assertThrows(MQClientException.class, () ->
                    admin.createAndUpdateTopicConfig(cluster.brokerAddr(), new TopicConfig("Forbidden", 1, 1, 6)));
            assertEquals(ResponseCode.NO_PERMISSION, refused.getResponseCode());
            assertTrue(refused.getErrorMessage().contains("Create") && refused.getErrorMessage().contains(
                    "Topic:Forbidden"), refused.getErrorMessage());
            assertTrue(cluster.broker().metadata().getTopic("Forbidden").isEmpty(), "no topic was created");
        } finally {
            admin.shutdown();
        }
    }

    @Test
    void aWrongSecretAnUnknownUserAndAnUnsignedRequestAreRefused() throws Exception {
        long before = stored();
        MQBrokerException wrongSecret = refusedSend(signer("alice", "not-her-secret"));
        assertEquals(ResponseCode.NO_PERMISSION, wrongSecret.getResponseCode());
        assertTrue(wrongSecret.getErrorMessage().contains("authentication failed"), wrongSecret.getErrorMessage());
        MQBrokerException unknown = refusedSend(signer("mallory", "whatever"));
        assertTrue(unknown.getErrorMessage().contains("no user 'mallory'"), unknown.getErrorMessage());
        MQBrokerException unsigned = refusedSend(null);
        assertTrue(unsigned.getErrorMessage().contains("AccessKey"), unsigned.getErrorMessage());
        assertEquals(before, stored(), "nothing was stored");
    }

    @Test
    void aRequestChangedAfterSigningIsRefused() throws Exception {
        long before = stored();
        RPCHook signer = signer("alice", "alice-secret");
        RPCHook tamper = new RPCHook() {
            @Override
            public void doBeforeRequest(String remoteAddr, RemotingCommand request) {
                signer.doBeforeRequest(remoteAddr, request);
                if (request.getCode() == RequestCode.SEND_MESSAGE_V2 || request.getCode() == RequestCode.SEND_MESSAGE) {
                    request.setBody("changed after signing".getBytes(StandardCharsets.UTF_8));
                }
            }

            @Override
            public void doAfterResponse(String remoteAddr, RemotingCommand request, RemotingCommand response) {
            }
        };
        MQBrokerException refused = refusedSend(tamper);
        assertEquals(ResponseCode.NO_PERMISSION, refused.getResponseCode());
        assertTrue(refused.getErrorMessage().contains("Signature"), refused.getErrorMessage());
        assertEquals(before, stored(), "nothing was stored");
    }

    @Test
    void aPolicyChangeAppliesToTheNextRequestWithoutRestart() throws Exception {
        auth.putUser(new User("dave", "dave-secret", UserType.NORMAL));
        DefaultMQProducer producer = producer(signer("dave", "dave-secret"));
        producer.start();
        try {
            assertEquals(ResponseCode.NO_PERMISSION, refusal(() -> producer.send(message("before"))).getResponseCode());
            auth.putPolicy("User:dave", List.of(allow("Topic:Guard*", Action.PUB)));
            assertEquals(SendStatus.SEND_OK, producer.send(message("allowed")).getSendStatus());
            auth.putPolicy("User:dave", List.of(allow("Topic:Guard*", Action.PUB), new PolicyEntry(
                    ResourcePattern.parse("Topic:" + TOPIC), EnumSet.of(Action.PUB), List.of(), Decision.DENY)));
            MQBrokerException denied = refusal(() -> producer.send(message("after")));
            assertEquals(ResponseCode.NO_PERMISSION, denied.getResponseCode());
        } finally {
            producer.shutdown();
        }
    }

    @Test
    void usersAndPoliciesAreManagedWithApachesAdminCalls() throws Exception {
        DefaultMQAdminExt root = admin(ADMIN, ADMIN_SECRET);
        DefaultMQAdminExt alice = admin("alice", "alice-secret");
        root.start();
        alice.start();
        try {
            MQBrokerException notAdmin = assertThrows(MQBrokerException.class,
                    () -> alice.createUser(cluster.brokerAddr(), "eve", "eve-secret", "Super"));
            assertEquals(ResponseCode.NO_PERMISSION, notAdmin.getResponseCode());
            assertTrue(auth.data().user("eve").isEmpty());

            root.createUser(cluster.brokerAddr(), "erin", "erin-secret", "Normal");
            root.createAcl(cluster.brokerAddr(), "User:erin", List.of("Topic:" + TOPIC), List.of("Pub"), List.of(),
                    "Allow");
            assertEquals("Topic:" + TOPIC, root.getAcl(cluster.brokerAddr(), "User:erin").getPolicies().get(0)
                    .getEntries().get(0).getResource());
            DefaultMQProducer erin = producer(signer("erin", "erin-secret"));
            erin.start();
            try {
                assertEquals(SendStatus.SEND_OK, erin.send(message("from-erin")).getSendStatus());
                root.deleteAcl(cluster.brokerAddr(), "User:erin", "Topic:" + TOPIC);
                MQBrokerException revoked = refusal(() -> erin.send(message("revoked")));
                assertEquals(ResponseCode.NO_PERMISSION, revoked.getResponseCode());
            } finally {
                erin.shutdown();
            }
            root.deleteUser(cluster.brokerAddr(), "erin");
            assertTrue(auth.data().user("erin").isEmpty());
        } finally {
            alice.shutdown();
            root.shutdown();
        }
    }

    @Test
    void sluicesTransportSignsWithItsCredentials() throws Exception {
        ClientSettings base = ClientSettings.defaults();
        try (RemotingClient root = new RemotingClient(base.withCredentials(Optional.of(
                new Credentials(ADMIN, ADMIN_SECRET))));
             RemotingClient alice = new RemotingClient(base.withCredentials(Optional.of(
                     new Credentials("alice", "alice-secret"))));
             RemotingClient unsigned = new RemotingClient(base)) {
            assertEquals(io.sluice.remoting.protocol.ResponseCode.SUCCESS, runtimeInfo(root).code());
            io.sluice.remoting.protocol.RemotingCommand denied = runtimeInfo(alice);
            assertEquals(ResponseCode.NO_PERMISSION, denied.code());
            assertTrue(denied.remark().contains("User:alice has no permission to Get on Cluster:"), denied.remark());
            assertTrue(runtimeInfo(unsigned).remark().contains("authentication failed"));
        }
    }

    private static io.sluice.remoting.protocol.RemotingCommand runtimeInfo(RemotingClient client) throws Exception {
        return client.invoke(cluster.brokerAddr(), io.sluice.remoting.protocol.RemotingCommand.request(
                RequestCode.GET_BROKER_RUNTIME_INFO), 5_000).get(5, TimeUnit.SECONDS);
    }
}
