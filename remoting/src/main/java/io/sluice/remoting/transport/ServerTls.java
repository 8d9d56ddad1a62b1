package io.sluice.remoting.transport;

import io.netty.handler.ssl.ClientAuth;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;
import javax.net.ssl.SSLException;

/**
 * TLS settings of a {@link RemotingServer}, validated once on construction. Immutable, thread-safe.
 *
 * <p>Certificates and keys are PEM files: the certificate chain, the private key in PKCS#8 (encrypted when
 * {@code keyPassword} is not empty) and, for client certificates, the certificates they must chain to. The files
 * are read when the server is built and again when they change ({@link ReloadingServerContext}).
 *
 * @param mode disabled, permissive (TLS and plain on one port) or enforcing (TLS only)
 * @param certPath the server's certificate chain; required unless disabled
 * @param keyPath the server's private key; required unless disabled
 * @param keyPassword password of an encrypted key, empty for an unencrypted one
 * @param trustCertPath certificates a client certificate must chain to; required when client certificates are
 *                      asked for
 * @param clientAuth whether clients must, may or need not present a certificate
 */
public record ServerTls(TlsMode mode, Optional<Path> certPath, Optional<Path> keyPath, String keyPassword,
                        Optional<Path> trustCertPath, TlsClientAuth clientAuth) {

    private static final ServerTls DISABLED = new ServerTls(TlsMode.DISABLED, Optional.empty(), Optional.empty(), "",
            Optional.empty(), TlsClientAuth.NONE);

    /** Validates every field; the exception names the bad value. */
    public ServerTls {
        Objects.requireNonNull(mode, "mode");
        Objects.requireNonNull(certPath, "certPath");
        Objects.requireNonNull(keyPath, "keyPath");
        Objects.requireNonNull(keyPassword, "keyPassword");
        Objects.requireNonNull(trustCertPath, "trustCertPath");
        Objects.requireNonNull(clientAuth, "clientAuth");
        if (mode != TlsMode.DISABLED) {
            requireReadable("certificate (tls.server.certPath)", certPath);
            requireReadable("private key (tls.server.keyPath)", keyPath);
            if (clientAuth != TlsClientAuth.NONE) {
                requireReadable("trust certificates for client certificates (tls.server.trustCertPath)",
                        trustCertPath);
            }
        }
    }

    /** Plain connections only. */
    public static ServerTls disabled() {
        return DISABLED;
    }

    /** TLS in {@code mode} with an unencrypted key and no client certificates. */
    public static ServerTls of(TlsMode mode, Path certPath, Path keyPath) {
        return new ServerTls(mode, Optional.of(certPath), Optional.of(keyPath), "", Optional.empty(),
                TlsClientAuth.NONE);
    }

    /** A copy that asks clients for certificates chaining to {@code trustCert}. */
    public ServerTls withClientAuth(TlsClientAuth auth, Path trustCert) {
        return new ServerTls(mode, certPath, keyPath, keyPassword, Optional.of(trustCert), auth);
    }

    /**
     * Reads the files into a server context on the JDK's TLS engine.
     *
     * @throws IllegalStateException naming the files when they cannot be read or do not match
     */
    SslContext newSslContext() {
        try {
            SslContextBuilder builder = SslContextBuilder.forServer(certPath.orElseThrow().toFile(),
                    keyPath.orElseThrow().toFile(), keyPassword.isEmpty() ? null : keyPassword)
                    .sslProvider(SslProvider.JDK)
                    .clientAuth(switch (clientAuth) {
                        case NONE -> ClientAuth.NONE;
                        case OPTIONAL -> ClientAuth.OPTIONAL;
                        case REQUIRE -> ClientAuth.REQUIRE;
                    });
            trustCertPath.ifPresent(path -> builder.trustManager(path.toFile()));
            return builder.build();
        } catch (SSLException | IllegalArgumentException e) {
            throw new IllegalStateException("cannot set up TLS from certificate " + certPath.orElseThrow() + ", key "
                    + keyPath.orElseThrow() + trustCertPath.map(p -> ", trust certificates " + p).orElse("") + ": "
                    + e.getMessage(), e);
        }
    }

    static void requireReadable(String what, Optional<Path> path) {
        if (path.isEmpty()) {
            throw new IllegalArgumentException("TLS needs a " + what);
        }
        if (!Files.isReadable(path.get())) {
            throw new IllegalArgumentException("TLS " + what + " " + path.get() + " is not a readable file");
        }
    }
}
