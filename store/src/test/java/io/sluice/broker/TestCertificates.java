package io.sluice.broker;

import java.net.URISyntaxException;
import java.nio.file.Path;
import org.apache.rocketmq.remoting.netty.TlsSystemConfig;

/**
 * The pre-generated test certificates under {@code src/test/resources/tls} (see its README), and the Apache
 * client's settings for presenting {@code client.crt}.
 */
final class TestCertificates {

    private TestCertificates() {
    }

    /** A client's start. */
    interface Start {
        void run() throws Exception;
    }

    /** The file {@code name} of the test certificates, e.g. {@code server.crt}. */
    static Path resource(String name) throws URISyntaxException {
        return Path.of(TestCertificates.class.getResource("/tls/" + name).toURI());
    }

    /** Runs {@code start} with Apache's client-certificate settings; they are read when a client starts. */
    static void withClientCertificate(Start start) throws Exception {
        boolean testMode = TlsSystemConfig.tlsTestModeEnable;
        String certPath = TlsSystemConfig.tlsClientCertPath;
        String keyPath = TlsSystemConfig.tlsClientKeyPath;
        boolean authServer = TlsSystemConfig.tlsClientAuthServer;
        String trustPath = TlsSystemConfig.tlsClientTrustCertPath;
        TlsSystemConfig.tlsTestModeEnable = false;
        TlsSystemConfig.tlsClientCertPath = resource("client.crt").toString();
        TlsSystemConfig.tlsClientKeyPath = resource("client.key").toString();
        TlsSystemConfig.tlsClientAuthServer = true;
        TlsSystemConfig.tlsClientTrustCertPath = resource("server.crt").toString();
        try {
            start.run();
        } finally {
            TlsSystemConfig.tlsTestModeEnable = testMode;
            TlsSystemConfig.tlsClientCertPath = certPath;
            TlsSystemConfig.tlsClientKeyPath = keyPath;
            TlsSystemConfig.tlsClientAuthServer = authServer;
            TlsSystemConfig.tlsClientTrustCertPath = trustPath;
        }
    }
}
