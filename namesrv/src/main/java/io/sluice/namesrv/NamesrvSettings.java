package io.sluice.namesrv;

import io.sluice.namesrv.auth.NamesrvAuthentication;
import io.sluice.namesrv.controller.ControllerSettings;
import io.sluice.namesrv.metrics.NamesrvMetricsSettings;
import io.sluice.remoting.transport.Credentials;
import io.sluice.remoting.transport.ServerTls;
import io.sluice.remoting.transport.TlsClientAuth;
import io.sluice.remoting.transport.TlsMode;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Properties;
import java.util.TreeSet;
import java.util.function.BiConsumer;

/**
 * Immutable, validated name-server settings. Every key of {@code namesrv.conf} is one component here; the keys,
 * units and defaults are:
 * <pre>
 * key                  unit    default   meaning
 * listenAddress        host    0.0.0.0   address the server binds
 * listenPort           port    9876      TCP port; 0 picks a free port (tests)
 * scanIntervalMs       ms      5000      period of the broker expiry scan (first scan one period after start)
 * brokerExpiryMs       ms      120000    a broker is dropped this long after its last registration, unless it
 *                                        registered with its own heartbeatTimeoutMillis
 * connectionIdleMs     ms      120000    connections idle (no read, no write) this long are closed
 * enableAllTopicList   boolean true      answer GET_ALL_TOPIC_LIST_FROM_NAMESERVER (else SYSTEM_ERROR "disable")
 * tls.server.mode      enum    disabled  disabled, permissive (TLS and plain on one port) or enforcing (TLS only)
 * tls.server.certPath  path    (none)    PEM certificate chain; needed unless disabled
 * tls.server.keyPath   path    (none)    PEM private key (PKCS#8); needed unless disabled
 * tls.server.keyPassword text  (none)    password of an encrypted key
 * tls.server.trustCertPath path (none)   PEM certificates client certificates must chain to
 * tls.server.need.client.auth enum none  none, optional or require a client certificate
 * authenticationEnabled boolean false  requests other than the anonymous reads must be signed by a known user
 * initAuthenticationUser JSON (none)  a known user: {"username":..,"password":..} (the administrator)
 * innerClientAuthenticationCredentials JSON (none)  a known user: {"accessKey":..,"secretKey":..} (the brokers)
 * </pre>
 * Changed certificate files are loaded for new connections, checked at each accept.
 *
 * @param listenAddress address to bind
 * @param listenPort TCP port, 0..65535
 * @param scanIntervalMs expiry scan period, positive
 * @param brokerExpiryMs default broker liveness timeout, positive
 * @param connectionIdleMs idle timeout of connections, positive
 * @param enableAllTopicList whether the full topic list may be queried
 * @param tls TLS of the listening port
 * @param authentication who may change routes and configuration
 */
public record NamesrvSettings(
        String listenAddress,
        int listenPort,
        long scanIntervalMs,
        long brokerExpiryMs,
        long connectionIdleMs,
        boolean enableAllTopicList,
        ServerTls tls,
        NamesrvAuthentication authentication) {

    /** The default TCP port of a name server. */
    public static final int DEFAULT_PORT = 9876;

    /** Validates every value; the exception names the bad one. */
    public NamesrvSettings {
        if (listenAddress == null || listenAddress.isBlank()) {
            throw new IllegalArgumentException("listenAddress must not be blank: '" + listenAddress + "'");
        }
        if (listenPort < 0 || listenPort > 65535) {
            throw new IllegalArgumentException("listenPort must be within 0..65535: " + listenPort);
        }
        requirePositive("scanIntervalMs", scanIntervalMs);
        requirePositive("brokerExpiryMs", brokerExpiryMs);
        requirePositive("connectionIdleMs", connectionIdleMs);
        Objects.requireNonNull(tls, "tls");
        Objects.requireNonNull(authentication, "authentication");
    }

    /** Settings without authentication. */
    public NamesrvSettings(String listenAddress, int listenPort, long scanIntervalMs, long brokerExpiryMs,
                           long connectionIdleMs, boolean enableAllTopicList, ServerTls tls) {
        this(listenAddress, listenPort, scanIntervalMs, brokerExpiryMs, connectionIdleMs, enableAllTopicList, tls,
                NamesrvAuthentication.DISABLED);
    }

    /** Settings without TLS. */
    public NamesrvSettings(String listenAddress, int listenPort, long scanIntervalMs, long brokerExpiryMs,
                           long connectionIdleMs, boolean enableAllTopicList) {
        this(listenAddress, listenPort, scanIntervalMs, brokerExpiryMs, connectionIdleMs, enableAllTopicList,
                ServerTls.disabled());
    }

    /**
     * The defaults: all interfaces, port 9876, 5 s scans, 120 s expiry and idle timeout, topic list enabled.
     *
     * @return the default settings
     */
    public static NamesrvSettings defaults() {
        return new NamesrvSettings("0.0.0.0", DEFAULT_PORT, 5_000, 120_000, 120_000, true);
    }

    /**
     * Copy with another listen address and port.
     *
     * @param address address to bind
     * @param port TCP port, 0 for any free port
     * @return the new settings
     */
    public NamesrvSettings withListen(String address, int port) {
        return new NamesrvSettings(address, port, scanIntervalMs, brokerExpiryMs, connectionIdleMs,
                enableAllTopicList, tls, authentication);
    }

    /**
     * Copy with other liveness timings.
     *
     * @param scanMs expiry scan period
     * @param expiryMs default broker timeout
     * @return the new settings
     */
    public NamesrvSettings withExpiry(long scanMs, long expiryMs) {
        return new NamesrvSettings(listenAddress, listenPort, scanMs, expiryMs, connectionIdleMs,
                enableAllTopicList, tls, authentication);
    }

    /**
     * Copy with other TLS settings.
     *
     * @param value TLS of the listening port
     * @return the new settings
     */
    public NamesrvSettings withTls(ServerTls value) {
        return new NamesrvSettings(listenAddress, listenPort, scanIntervalMs, brokerExpiryMs, connectionIdleMs,
                enableAllTopicList, value, authentication);
    }

    /**
     * Copy with other authentication settings.
     *
     * @param value who may change routes and configuration
     * @return the new settings
     */
    public NamesrvSettings withAuthentication(NamesrvAuthentication value) {
        return new NamesrvSettings(listenAddress, listenPort, scanIntervalMs, brokerExpiryMs, connectionIdleMs,
                enableAllTopicList, tls, value);
    }

    /**
     * Defaults overridden by {@code properties} (the content of {@code namesrv.conf}).
     *
     * @param properties keys from the table above
     * @return the settings
     * @throws IllegalArgumentException naming an unknown key or a bad value
     */
    public static NamesrvSettings fromProperties(Properties properties) {
        Builder builder = new Builder(defaults());
        Map<String, BiConsumer<Builder, String>> keys = new LinkedHashMap<>();
        keys.put("listenAddress", (b, v) -> b.listenAddress = v.trim());
        keys.put("listenPort", (b, v) -> b.listenPort = parseInt("listenPort", v));
        keys.put("scanIntervalMs", (b, v) -> b.scanIntervalMs = parseLong("scanIntervalMs", v));
        keys.put("brokerExpiryMs", (b, v) -> b.brokerExpiryMs = parseLong("brokerExpiryMs", v));
        keys.put("connectionIdleMs", (b, v) -> b.connectionIdleMs = parseLong("connectionIdleMs", v));
        keys.put("enableAllTopicList", (b, v) -> b.enableAllTopicList = parseBoolean("enableAllTopicList", v));
        keys.put("tls.server.mode", (b, v) -> b.tlsMode = TlsMode.parse(v));
        keys.put("tls.server.certPath", (b, v) -> b.tlsCertPath = optionalPath(v));
        keys.put("tls.server.keyPath", (b, v) -> b.tlsKeyPath = optionalPath(v));
        keys.put("tls.server.keyPassword", (b, v) -> b.tlsKeyPassword = v.trim());
        keys.put("tls.server.trustCertPath", (b, v) -> b.tlsTrustCertPath = optionalPath(v));
        keys.put("tls.server.need.client.auth", (b, v) -> b.tlsClientAuth = TlsClientAuth.parse(v));
        keys.put("authenticationEnabled", (b, v) -> b.authenticationEnabled = parseBoolean("authenticationEnabled",
                v));
        keys.put("initAuthenticationUser", (b, v) -> b.adminUser = NamesrvAuthentication.parseUser(v));
        keys.put("innerClientAuthenticationCredentials", (b, v) -> b.innerUser = NamesrvAuthentication.parseInner(v));
        for (String name : new TreeSet<>(properties.stringPropertyNames())) {
            if (ControllerSettings.KEYS.contains(name) || NamesrvMetricsSettings.KEYS.contains(name)) {
                continue; // read by ControllerSettings.fromProperties and NamesrvMetricsSettings.fromProperties
            }
            BiConsumer<Builder, String> setter = keys.get(name);
            if (setter == null) {
                throw new IllegalArgumentException("unknown name server setting '" + name + "'; known: "
                        + keys.keySet());
            }
            setter.accept(builder, properties.getProperty(name));
        }
        return builder.build();
    }

    private static Optional<Path> optionalPath(String value) {
        String text = value.trim();
        return text.isEmpty() ? Optional.empty() : Optional.of(Path.of(text));
    }

    private static void requirePositive(String name, long value) {
        if (value <= 0) {
            throw new IllegalArgumentException(name + " must be positive: " + value);
        }
    }

    private static int parseInt(String name, String value) {
        try {
            return Integer.parseInt(value.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + " is not an int: '" + value + "'", e);
        }
    }

    private static long parseLong(String name, String value) {
        try {
            return Long.parseLong(value.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + " is not a number: '" + value + "'", e);
        }
    }

    private static boolean parseBoolean(String name, String value) {
        String text = value.trim();
        if (text.equalsIgnoreCase("true")) {
            return true;
        }
        if (text.equalsIgnoreCase("false")) {
            return false;
        }
        throw new IllegalArgumentException(name + " must be true or false: '" + value + "'");
    }

    /** Mutable staging area for {@link #fromProperties}. */
    private static final class Builder {
        private String listenAddress;
        private int listenPort;
        private long scanIntervalMs;
        private long brokerExpiryMs;
        private long connectionIdleMs;
        private boolean enableAllTopicList;
        private TlsMode tlsMode;
        private Optional<Path> tlsCertPath;
        private Optional<Path> tlsKeyPath;
        private String tlsKeyPassword;
        private Optional<Path> tlsTrustCertPath;
        private TlsClientAuth tlsClientAuth;
        private boolean authenticationEnabled;
        private Optional<Credentials> adminUser;
        private Optional<Credentials> innerUser;

        Builder(NamesrvSettings base) {
            listenAddress = base.listenAddress();
            listenPort = base.listenPort();
            scanIntervalMs = base.scanIntervalMs();
            brokerExpiryMs = base.brokerExpiryMs();
            connectionIdleMs = base.connectionIdleMs();
            enableAllTopicList = base.enableAllTopicList();
            tlsMode = base.tls().mode();
            tlsCertPath = base.tls().certPath();
            tlsKeyPath = base.tls().keyPath();
            tlsKeyPassword = base.tls().keyPassword();
            tlsTrustCertPath = base.tls().trustCertPath();
            tlsClientAuth = base.tls().clientAuth();
            authenticationEnabled = base.authentication().enabled();
            adminUser = base.authentication().admin();
            innerUser = base.authentication().inner();
        }

        NamesrvSettings build() {
            ServerTls tls = tlsMode == TlsMode.DISABLED ? ServerTls.disabled() : new ServerTls(tlsMode, tlsCertPath,
                    tlsKeyPath, tlsKeyPassword, tlsTrustCertPath, tlsClientAuth);
            return new NamesrvSettings(listenAddress, listenPort, scanIntervalMs, brokerExpiryMs, connectionIdleMs,
                    enableAllTopicList, tls, new NamesrvAuthentication(authenticationEnabled, adminUser, innerUser));
        }
    }
}
