package io.sluice.client;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.namesrv.NameServer;
import io.sluice.namesrv.NamesrvSettings;
import io.sluice.remoting.transport.ClientTls;
import io.sluice.remoting.transport.ServerTls;
import io.sluice.remoting.transport.TlsMode;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Our client's TLS settings against a name server in TLS enforcing mode (in this JVM; certificates pre-generated
 * under {@code src/test/resources/tls}).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class TlsConnectionTest {

    private static NameServer nameServer;
    private static Path serverCert;

    @BeforeAll
    static void start() throws URISyntaxException {
        serverCert = resource("server.crt");
        nameServer = new NameServer(NamesrvSettings.defaults().withListen("127.0.0.1", 0)
                .withTls(ServerTls.of(TlsMode.ENFORCING, serverCert, resource("server.key"))));
        nameServer.start();
    }

    @AfterAll
    static void stop() {
        nameServer.close();
    }

    private static Path resource(String name) throws URISyntaxException {
        return Path.of(TlsConnectionTest.class.getResource("/tls/" + name).toURI());
    }

    private static ConnectionSettings connection() {
        return ConnectionSettings.of("127.0.0.1:" + nameServer.port()).withClientIp("127.0.0.1")
                .withRpcTimeoutMs(3_000);
    }

    @Test
    void anAdminWithTlsSettingsTalksToATlsNameServer() {
        try (Admin admin = Admin.start(connection().withTls(ClientTls.trusting(serverCert)))) {
            assertNotNull(admin.clusterInfo());
        }
    }

    @Test
    void anAdminWithoutTlsIsRefused() {
        try (Admin admin = Admin.start(connection())) {
            assertThrows(ClientException.class, admin::clusterInfo);
        }
    }

    @Test
    void anAdminThatDoesNotTrustTheServerIsRefused() throws URISyntaxException {
        try (Admin admin = Admin.start(connection().withTls(ClientTls.trusting(resource("client.crt"))))) {
            ClientException refused = assertThrows(ClientException.class, admin::clusterInfo);
            assertTrue(String.valueOf(refused.getMessage()).contains("TLS")
                    || String.valueOf(refused.getCause()).contains("TLS"), refused.toString());
        }
    }
}
