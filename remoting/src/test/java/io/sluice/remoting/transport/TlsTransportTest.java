package io.sluice.remoting.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.remoting.protocol.RemotingCommand;
import io.sluice.remoting.protocol.RequestCode;
import io.sluice.remoting.protocol.ResponseCode;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.rocketmq.remoting.netty.NettyClientConfig;
import org.apache.rocketmq.remoting.netty.NettyRemotingClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * TLS on the transport: enforcing, permissive and client-certificate servers against our client and Apache's
 * {@code NettyRemotingClient} ({@code setUseTLS(true)}, its default test mode trusting any certificate). The
 * certificates are pre-generated PEM files under {@code src/test/resources/tls}.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class TlsTransportTest {
    private static final long TIMEOUT_MS = 5_000;

    private static Path serverCert;
    private static Path serverKey;
    private static Path clientCert;
    private static Path clientKey;
    private static RemotingServer enforcing;
    private static RemotingServer permissive;
    private static RemotingServer clientCertRequired;
    private static NettyRemotingClient apacheTls;
    private static NettyRemotingClient apachePlain;

    @BeforeAll
    static void start() throws URISyntaxException {
        serverCert = resource("server.crt");
        serverKey = resource("server.key");
        clientCert = resource("client.crt");
        clientKey = resource("client.key");
        enforcing = echoServer(ServerTls.of(TlsMode.ENFORCING, serverCert, serverKey));
        permissive = echoServer(ServerTls.of(TlsMode.PERMISSIVE, serverCert, serverKey));
        clientCertRequired = echoServer(ServerTls.of(TlsMode.ENFORCING, serverCert, serverKey)
                .withClientAuth(TlsClientAuth.REQUIRE, clientCert));
        NettyClientConfig tlsConfig = new NettyClientConfig();
        tlsConfig.setUseTLS(true);
        apacheTls = new NettyRemotingClient(tlsConfig);
        apacheTls.start();
        apachePlain = new NettyRemotingClient(new NettyClientConfig());
        apachePlain.start();
    }

    @AfterAll
    static void stop() {
        apacheTls.shutdown();
        apachePlain.shutdown();
        enforcing.close();
        permissive.close();
        clientCertRequired.close();
    }

    private static Path resource(String name) throws URISyntaxException {
        return Path.of(TlsTransportTest.class.getResource("/tls/" + name).toURI());
    }

    private static RemotingServer echoServer(ServerTls tls) {
        RemotingServer server = new RemotingServer(ServerSettings.builder().bindAddress("127.0.0.1").port(0)
                .tls(tls).build());
        server.registerHandler(RequestCode.GET_ROUTEINFO_BY_TOPIC, RequestHandler.sync((connection, request) ->
                RemotingCommand.responseTo(request).putExtField("topic", request.requireString("topic"))));
        server.start();
        return server;
    }

    private static String address(RemotingServer server) {
        return "127.0.0.1:" + server.port();
    }

    private static void assertOurClientWorks(ClientTls tls, RemotingServer server) throws Exception {
        try (RemotingClient client = new RemotingClient(ClientSettings.defaults().withTls(tls))) {
            RemotingCommand response = client.invoke(address(server), RemotingCommand.request(
                    RequestCode.GET_ROUTEINFO_BY_TOPIC).putExtField("topic", "T"), TIMEOUT_MS).get();
            assertEquals(ResponseCode.SUCCESS, response.code());
            assertEquals("T", response.extField("topic"));
        }
    }

    private static Throwable assertOurClientRefused(ClientTls tls, RemotingServer server) {
        try (RemotingClient client = new RemotingClient(ClientSettings.defaults().withTls(tls))) {
            return assertThrows(ExecutionException.class, () -> client.invoke(address(server),
                    RemotingCommand.request(RequestCode.GET_ROUTEINFO_BY_TOPIC).putExtField("topic", "T"),
                    TIMEOUT_MS).get()).getCause();
        }
    }

    private static void assertApacheWorks(NettyRemotingClient apache, RemotingServer server) throws Exception {
        org.apache.rocketmq.remoting.protocol.RemotingCommand request =
                org.apache.rocketmq.remoting.protocol.RemotingCommand.createRequestCommand(
                        RequestCode.GET_ROUTEINFO_BY_TOPIC, null);
        request.addExtField("topic", "A");
        org.apache.rocketmq.remoting.protocol.RemotingCommand response =
                apache.invokeSync(address(server), request, TIMEOUT_MS);
        assertEquals(ResponseCode.SUCCESS, response.getCode());
        assertEquals("A", response.getExtFields().get("topic"));
    }

    private static void assertApacheRefused(NettyRemotingClient apache, RemotingServer server) {
        org.apache.rocketmq.remoting.protocol.RemotingCommand request =
                org.apache.rocketmq.remoting.protocol.RemotingCommand.createRequestCommand(
                        RequestCode.GET_ROUTEINFO_BY_TOPIC, null);
        request.addExtField("topic", "A");
        assertThrows(Exception.class, () -> apache.invokeSync(address(server), request, TIMEOUT_MS));
    }

    @Test
    void enforcingServesTlsClients() throws Exception {
        assertOurClientWorks(ClientTls.trusting(serverCert), enforcing);
        assertOurClientWorks(ClientTls.trustingAll(), enforcing);
        assertApacheWorks(apacheTls, enforcing);
    }

    @Test
    void enforcingRefusesPlainClients() {
        Throwable refused = assertOurClientRefused(ClientTls.disabled(), enforcing);
        assertTrue(refused instanceof ConnectionClosedException, refused.toString());
        assertApacheRefused(apachePlain, enforcing);
    }

    @Test
    void permissiveServesTlsAndPlainClientsOnOnePort() throws Exception {
        assertOurClientWorks(ClientTls.trusting(serverCert), permissive);
        assertOurClientWorks(ClientTls.disabled(), permissive);
        assertApacheWorks(apacheTls, permissive);
        assertApacheWorks(apachePlain, permissive);
    }

    @Test
    void aServerCertificateTheClientDoesNotTrustFailsTheHandshake() {
        Throwable refused = assertOurClientRefused(ClientTls.trusting(clientCert), enforcing);
        assertTrue(refused instanceof RemotingConnectException && refused.getMessage().contains("TLS handshake"),
                refused.toString());
    }

    @Test
    void aRequiredClientCertificateMustBeSentAndTrusted() throws Exception {
        assertOurClientWorks(ClientTls.trusting(serverCert).withCertificate(clientCert, clientKey),
                clientCertRequired);
        assertOurClientRefused(ClientTls.trusting(serverCert), clientCertRequired);
        // A certificate the server does not trust: the server's own.
        assertOurClientRefused(ClientTls.trusting(serverCert).withCertificate(serverCert, serverKey),
                clientCertRequired);
        assertApacheRefused(apacheTls, clientCertRequired);
    }

    @Test
    void settingsNameMissingFiles() {
        Path missing = Path.of("no-such-dir", "server.crt");
        IllegalArgumentException error = assertThrows(IllegalArgumentException.class,
                () -> ServerTls.of(TlsMode.ENFORCING, missing, serverKey));
        assertTrue(error.getMessage().contains(missing.toString()), error.getMessage());
        assertEquals(ServerTls.disabled(), new ServerTls(TlsMode.DISABLED, java.util.Optional.empty(),
                java.util.Optional.empty(), "", java.util.Optional.empty(), TlsClientAuth.NONE));
        assertThrows(IllegalArgumentException.class, () -> TlsMode.parse("strict"));
        assertEquals(TlsMode.PERMISSIVE, TlsMode.parse(" Permissive "));
    }
}
