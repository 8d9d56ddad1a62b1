package io.sluice.remoting.transport;

import io.netty.handler.ssl.SslContext;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A server's TLS context that follows its PEM files: each accepted connection asks for the context, which is
 * rebuilt when the certificate, key or trust file has changed (modification time or size) since it was built, so a
 * renewed certificate is served to new connections without a restart; open connections keep their session. A
 * rebuild that fails (a file half written, a key that does not match) keeps the old context and is logged once
 * per change of the files.
 *
 * <p>Called by the I/O threads that accept connections; the state is one volatile snapshot, replaced whole. Two
 * threads seeing the same change may both rebuild: harmless, the last one published wins.
 */
final class ReloadingServerContext implements Supplier<SslContext> {

    private static final Logger LOG = LoggerFactory.getLogger(ReloadingServerContext.class);

    /** A built context and the stamps of the files it was built from. */
    private record Loaded(SslContext context, List<String> stamps) {
    }

    private final ServerTls tls;
    private volatile Loaded loaded;
    /** Stamps of the files whose rebuild failed last, so the failure is logged once. */
    private volatile List<String> failedStamps = List.of();

    /** Builds the first context; a failure here is the caller's (the server does not start). */
    ReloadingServerContext(ServerTls tls) {
        this.tls = tls;
        List<String> stamps = stamps();
        this.loaded = new Loaded(tls.newSslContext(), stamps);
    }

    @Override
    public SslContext get() {
        Loaded current = loaded;
        List<String> stamps = stamps();
        if (stamps.equals(current.stamps()) || stamps.equals(failedStamps)) {
            return current.context();
        }
        try {
            SslContext rebuilt = tls.newSslContext();
            loaded = new Loaded(rebuilt, stamps);
            LOG.info("TLS certificate {} reloaded: new connections get it", tls.certPath().orElseThrow());
            return rebuilt;
        } catch (IllegalStateException e) {
            failedStamps = stamps;
            LOG.warn("TLS files changed but cannot be loaded; still serving the previous certificate: {}",
                    e.getMessage());
            return current.context();
        }
    }

    /** Modification time and size of each file the context is built from ("missing" for an unreadable one). */
    private List<String> stamps() {
        List<String> stamps = new ArrayList<>(3);
        for (Optional<Path> path : List.of(tls.certPath(), tls.keyPath(), tls.trustCertPath())) {
            if (path.isEmpty()) {
                continue;
            }
            try {
                stamps.add(Files.getLastModifiedTime(path.get()).toMillis() + "/" + Files.size(path.get()));
            } catch (IOException e) {
                stamps.add("missing");
            }
        }
        return stamps;
    }
}
