package io.sluice.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.broker.config.BrokerSettings;
import io.sluice.namesrv.NameServer;
import io.sluice.namesrv.NamesrvSettings;
import io.sluice.namesrv.auth.NamesrvAuthentication;
import io.sluice.remoting.transport.Credentials;
import io.sluice.testing.Await;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.rocketmq.acl.common.AclClientRPCHook;
import org.apache.rocketmq.acl.common.SessionCredentials;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.remoting.RPCHook;
import org.apache.rocketmq.remoting.protocol.ResponseCode;
import org.apache.rocketmq.remoting.protocol.route.TopicRouteData;
import org.apache.rocketmq.tools.admin.DefaultMQAdminExt;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A name server with {@code authenticationEnabled}: a broker signing with the right
 * {@code innerClientAuthenticationCredentials} registers, one with a wrong secret is refused; the unmodified Apache
 * admin deletes a topic's route or puts a KV value only when it signs as the administrator, while route and KV
 * reads stay open to an unsigned Apache client.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class NamesrvAuthenticationIT {

    private static final String CLUSTER = "AuthCluster";
    private static final String INNER = "{\"accessKey\":\"inner\",\"secretKey\":\"inner-secret\"}";

    @TempDir
    static Path dir;

    private static NameServer namesrv;
    private static Broker good;
    private static Broker wrong;

    @BeforeAll
    static void start() throws Exception {
        namesrv = new NameServer(NamesrvSettings.defaults().withListen("127.0.0.1", 0)
                .withAuthentication(new NamesrvAuthentication(true, Optional.of(new Credentials("root", "root-secret")),
                        NamesrvAuthentication.parseInner(INNER))));
        namesrv.start();
        good = broker("good", INNER);
        wrong = broker("wrong", "{\"accessKey\":\"inner\",\"secretKey\":\"not-the-secret\"}");
    }

    private static Broker broker(String name, String credentials) throws Exception {
        Map<String, String> conf = new LinkedHashMap<>();
        conf.put("namesrvAddr", namesrvAddr());
        conf.put("brokerClusterName", CLUSTER);
        conf.put("brokerName", name);
        conf.put("listenPort", "0");
        conf.put("haListenPort", "0");
        conf.put("brokerIP1", "127.0.0.1");
        conf.put("storePathRootDir", dir.resolve(name).toString());
        conf.put("mappedFileSizeCommitLog", Integer.toString(16 * 1024 * 1024));
        conf.put("mappedFileSizeConsumeQueue", Integer.toString(20 * 10_000));
        conf.put("mapperFileSizeBatchConsumeQueue", Integer.toString(46 * 10_000));
        conf.put("maxHashSlotNum", "10000");
        conf.put("maxIndexNum", "40000");
        conf.put("innerClientAuthenticationCredentials", credentials);
        BrokerSettings.Builder settings = BrokerSettings.builder();
        conf.forEach(settings::setText);
        Broker broker = new Broker(settings.build());
        broker.start();
        return broker;
    }

    @AfterAll
    static void stop() {
        for (AutoCloseable closeable : new AutoCloseable[] {good, wrong, namesrv}) {
            try {
                if (closeable != null) {
                    closeable.close();
                }
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }
    }

    private static String namesrvAddr() {
        return "127.0.0.1:" + namesrv.port();
    }

    private static DefaultMQAdminExt admin(RPCHook hook, String name) throws MQClientException {
        DefaultMQAdminExt admin = hook == null ? new DefaultMQAdminExt(10_000) : new DefaultMQAdminExt(hook, 10_000);
        admin.setNamesrvAddr(namesrvAddr());
        admin.setInstanceName(ApacheClients.instance(name));
        admin.start();
        return admin;
    }

    private static RPCHook root() {
        return new AclClientRPCHook(new SessionCredentials("root", "root-secret"));
    }

    @Test
    void theRightInnerCredentialsRegisterAndWrongOnesAreRefused() throws Exception {
        DefaultMQAdminExt anonymous = admin(null, "anonymous-routes");
        try {
            Await.until("the broker with the right inner credentials registers", () -> registered(anonymous, "good"));
            TopicRouteData route = anonymous.examineTopicRouteInfo("good");
            assertEquals("good", route.getBrokerDatas().get(0).getBrokerName(), "routes stay open to anyone");
            Await.until("the wrong broker is refused", () -> namesrv.refusedUnauthenticated() > 0);
            assertFalse(registered(anonymous, "wrong"),
                    "a broker with a wrong secret is not registered");
        } finally {
            anonymous.shutdown();
        }
    }

    @Test
    void deletingARouteNeedsTheAdministratorsSignature() throws Exception {
        DefaultMQAdminExt anonymous = admin(null, "anonymous-delete");
        DefaultMQAdminExt impostor = admin(new AclClientRPCHook(new SessionCredentials("root", "guess")),
                "impostor-delete");
        DefaultMQAdminExt root = admin(root(), "root-delete");
        try {
            Await.until("the broker registers", () -> registered(anonymous, "good"));
            Set<String> namesrvs = Set.of(namesrvAddr());
            for (DefaultMQAdminExt refused : new DefaultMQAdminExt[] {anonymous, impostor}) {
                Exception error = assertThrows(Exception.class,
                        () -> refused.deleteTopicInNameServer(namesrvs, CLUSTER, CLUSTER));
                assertTrue(refusal(error), "refused NO_PERMISSION: " + error);
            }
            assertEquals(1, anonymous.examineTopicRouteInfo(CLUSTER).getBrokerDatas().size(), "nothing deleted");
            root.deleteTopicInNameServer(namesrvs, CLUSTER, CLUSTER);
            assertThrows(MQClientException.class, () -> anonymous.examineTopicRouteInfo(CLUSTER),
                    "the administrator deleted the route");
        } finally {
            anonymous.shutdown();
            impostor.shutdown();
            root.shutdown();
        }
    }

    @Test
    void kvWritesNeedASignatureWhileReadsStayOpen() throws Exception {
        DefaultMQAdminExt anonymous = admin(null, "anonymous-kv");
        DefaultMQAdminExt root = admin(root(), "root-kv");
        try {
            Exception error = assertThrows(Exception.class,
                    () -> anonymous.createAndUpdateKvConfig("ORDER_TOPIC_CONFIG", "Orders", "good:4"));
            assertTrue(refusal(error), "refused NO_PERMISSION: " + error);
            root.createAndUpdateKvConfig("ORDER_TOPIC_CONFIG", "Orders", "good:4");
            assertEquals("good:4", anonymous.getKVConfig("ORDER_TOPIC_CONFIG", "Orders"));
        } finally {
            anonymous.shutdown();
            root.shutdown();
        }
    }

    private static boolean registered(DefaultMQAdminExt admin, String brokerName) {
        try {
            return admin.examineBrokerClusterInfo().getBrokerAddrTable().containsKey(brokerName);
        } catch (Exception e) {
            throw new IllegalStateException("cluster info unavailable: " + e, e);
        }
    }

    /** Whether {@code error} or a cause of it is a NO_PERMISSION answer. */
    private static boolean refusal(Throwable error) {
        for (Throwable cause = error; cause != null; cause = cause.getCause()) {
            if (cause instanceof MQClientException client && client.getResponseCode() == ResponseCode.NO_PERMISSION) {
                return true;
            }
            if (cause instanceof org.apache.rocketmq.client.exception.MQBrokerException broker
                    && broker.getResponseCode() == ResponseCode.NO_PERMISSION) {
                return true;
            }
        }
        return false;
    }
}
