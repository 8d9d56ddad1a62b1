package io.sluice.remoting.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.security.cert.X509Certificate;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** A server's certificate files replaced while it runs: the next TLS connection is served the new certificate. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ReloadingServerContextTest {

    @TempDir
    Path dir;

    private static Path resource(String name) throws URISyntaxException {
        return Path.of(ReloadingServerContextTest.class.getResource("/tls/" + name).toURI());
    }

    /** Copies a test identity over {@code cert} and {@code key}, stamped {@code ageMs} in the past. */
    private static void install(String identity, Path cert, Path key, long ageMs) throws Exception {
        FileTime stamp = FileTime.fromMillis(System.currentTimeMillis() - ageMs);
        Files.copy(resource(identity + ".crt"), cert, StandardCopyOption.REPLACE_EXISTING);
        Files.copy(resource(identity + ".key"), key, StandardCopyOption.REPLACE_EXISTING);
        Files.setLastModifiedTime(cert, stamp);
        Files.setLastModifiedTime(key, stamp);
    }

    /** The subject of the certificate a fresh TLS connection to {@code port} is served (any certificate trusted). */
    private static String servedSubject(int port) throws Exception {
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(null, new TrustManager[] {new TrustAll()}, null);
        try (SSLSocket socket = (SSLSocket) context.getSocketFactory().createSocket("127.0.0.1", port)) {
            socket.setSoTimeout(10_000);
            socket.startHandshake();
            return ((X509Certificate) socket.getSession().getPeerCertificates()[0]).getSubjectX500Principal()
                    .getName();
        }
    }

    @Test
    void aReplacedCertificateIsServedToNewConnections() throws Exception {
        Path cert = dir.resolve("server.crt");
        Path key = dir.resolve("server.key");
        install("server", cert, key, 60_000);
        RemotingServer server = new RemotingServer(ServerSettings.builder().bindAddress("127.0.0.1").port(0)
                .tls(ServerTls.of(TlsMode.ENFORCING, cert, key)).build());
        server.start();
        try {
            assertEquals("CN=sluice-test-server", servedSubject(server.port()));
            Files.writeString(key, "half written");
            Files.setLastModifiedTime(key, FileTime.fromMillis(System.currentTimeMillis() - 30_000));
            assertEquals("CN=sluice-test-server", servedSubject(server.port()), "a broken key keeps the old one");
            install("client", cert, key, 0);
            assertEquals("CN=sluice-test-client", servedSubject(server.port()), "the new certificate");
        } finally {
            server.close();
        }
    }

    /** Trusts every server: the test looks at which certificate is served, not whether it is trusted. */
    private static final class TrustAll implements X509TrustManager {
        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType) {
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType) {
        }

        @Override
        public X509Certificate[] getAcceptedIssuers() {
            return new X509Certificate[0];
        }
    }
}
