package io.sluice.remoting.transport;

import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;
import io.netty.handler.ssl.util.InsecureTrustManagerFactory;
import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;
import javax.net.ssl.SSLException;

/**
 * TLS settings of a {@link RemotingClient}, validated once on construction. Immutable, thread-safe.
 *
 * <p>The server's certificate is checked against {@code trustCertPath}, or against the JDK's default trust store
 * when that is empty, unless {@code trustAll} (the Apache client's test mode) accepts any certificate. Host names
 * are not checked, as the Apache client does not check them. A client certificate is sent when the server asks for
 * one and {@code certPath} and {@code keyPath} (PEM, PKCS#8 key) are set. Files are read when the client is built.
 *
 * @param enabled whether connections use TLS at all
 * @param trustAll accept any server certificate (encryption without authentication of the server)
 * @param trustCertPath certificates the server's certificate must chain to; empty = the JDK's trust store
 * @param certPath the client's certificate chain, sent when the server asks for one
 * @param keyPath the client's private key
 * @param keyPassword password of an encrypted key, empty for an unencrypted one
 */
public record ClientTls(boolean enabled, boolean trustAll, Optional<Path> trustCertPath, Optional<Path> certPath,
                        Optional<Path> keyPath, String keyPassword) {

    private static final ClientTls DISABLED = new ClientTls(false, false, Optional.empty(), Optional.empty(),
            Optional.empty(), "");

    /** Validates every field; the exception names the bad value. */
    public ClientTls {
        Objects.requireNonNull(trustCertPath, "trustCertPath");
        Objects.requireNonNull(certPath, "certPath");
        Objects.requireNonNull(keyPath, "keyPath");
        Objects.requireNonNull(keyPassword, "keyPassword");
        if (enabled) {
            if (trustCertPath.isPresent()) {
                ServerTls.requireReadable("trust certificate", trustCertPath);
            }
            if (certPath.isPresent() || keyPath.isPresent()) {
                ServerTls.requireReadable("client certificate", certPath);
                ServerTls.requireReadable("client private key", keyPath);
            }
        }
    }

    /** Plain connections. */
    public static ClientTls disabled() {
        return DISABLED;
    }

    /** TLS, trusting servers whose certificates chain to {@code trustCert}. */
    public static ClientTls trusting(Path trustCert) {
        return new ClientTls(true, false, Optional.of(trustCert), Optional.empty(), Optional.empty(), "");
    }

    /** TLS, trusting any server certificate. */
    public static ClientTls trustingAll() {
        return new ClientTls(true, true, Optional.empty(), Optional.empty(), Optional.empty(), "");
    }

    /** A copy that presents {@code cert} with its unencrypted {@code key} when the server asks for a certificate. */
    public ClientTls withCertificate(Path cert, Path key) {
        return new ClientTls(enabled, trustAll, trustCertPath, Optional.of(cert), Optional.of(key), "");
    }

    /**
     * Reads the files into a client context on the JDK's TLS engine.
     *
     * @throws IllegalStateException naming the files when they cannot be read
     */
    SslContext newSslContext() {
        try {
            SslContextBuilder builder = SslContextBuilder.forClient().sslProvider(SslProvider.JDK);
            if (trustAll) {
                builder.trustManager(InsecureTrustManagerFactory.INSTANCE);
            } else {
                trustCertPath.ifPresent(path -> builder.trustManager(path.toFile()));
            }
            if (certPath.isPresent()) {
                builder.keyManager(certPath.get().toFile(), keyPath.orElseThrow().toFile(),
                        keyPassword.isEmpty() ? null : keyPassword);
            }
            return builder.build();
        } catch (SSLException | IllegalArgumentException e) {
            throw new IllegalStateException("cannot set up client TLS" + trustCertPath.map(p -> " trusting " + p)
                    .orElse("") + certPath.map(p -> " with certificate " + p).orElse("") + ": " + e.getMessage(), e);
        }
    }
}
