package io.sluice.cli;

import io.sluice.broker.Broker;
import io.sluice.broker.config.BrokerConfigKeys;
import io.sluice.broker.config.BrokerConfigLoader;
import io.sluice.broker.config.BrokerSettings;
import io.sluice.namesrv.NameServer;
import io.sluice.namesrv.NamesrvSettings;
import io.sluice.namesrv.auth.NamesrvAuthentication;
import io.sluice.remoting.transport.Credentials;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Standalone mode: a name server and a broker in one process. It lives in the distribution, not in the broker's
 * module, because it is the one place that wires the two servers together.
 *
 * <p>The first {@code namesrvAddr} entry of the broker's file says where the embedded name server listens (host and
 * port), so several standalone brokers with distinct ports and store directories can run side by side. Without a
 * file, or when the file sets no {@code namesrvAddr}, every other setting keeps its value, the name server listens
 * on {@code bindAddress:9876} and the broker registers with {@code 127.0.0.1:9876}. Unless the file sets them,
 * {@code bindAddress} and {@code brokerIP1} are {@code 127.0.0.1}: a quickstart listens on the loopback interface
 * only. With {@code authenticationEnabled} the name server, too, refuses unsigned changes (its users: the broker's
 * {@code initAuthenticationUser} and {@code innerClientAuthenticationCredentials}). Stateless.
 */
final class Standalone {

    private static final Logger LOG = LoggerFactory.getLogger(Standalone.class);

    private static final String LOOPBACK = "127.0.0.1";

    private Standalone() {
    }

    /**
     * Starts an embedded name server and a broker registered with it; the name server's port has the broker's TLS
     * settings ({@code tls.server.*}).
     *
     * @param configFile a broker.conf, or null for the defaults
     * @return what to close at shutdown
     */
    static Running start(Path configFile) throws IOException {
        BrokerSettings loaded = configFile == null ? BrokerConfigLoader.defaults()
                : BrokerConfigLoader.load(configFile);
        Set<String> keysSet = configFile == null ? Set.of() : keysOf(configFile);
        Map<String, String> overrides = new TreeMap<>();
        // A quickstart must not expose an unauthenticated broker on every interface: loopback unless the file says.
        for (String key : List.of(BrokerConfigKeys.BIND_ADDRESS.name(), BrokerConfigKeys.BROKER_IP1.name())) {
            if (!keysSet.contains(key)) {
                overrides.put(key, LOOPBACK);
            }
        }
        List<String> namesrvs = loaded.namesrvAddresses();
        String namesrvAddr = namesrvs.isEmpty() ? "127.0.0.1:" + NamesrvSettings.DEFAULT_PORT : namesrvs.get(0);
        if (namesrvs.isEmpty()) {
            overrides.put(BrokerConfigKeys.NAMESRV_ADDR.name(), namesrvAddr);
        }
        BrokerSettings settings = overrides.isEmpty() ? loaded : with(loaded, overrides);
        int colon = namesrvAddr.lastIndexOf(':');
        String bindHost = namesrvs.isEmpty() ? settings.bindAddress() : namesrvAddr.substring(0, colon);
        int port = Integer.parseInt(namesrvAddr.substring(colon + 1));
        // The embedded name server speaks TLS as the broker's port does (tls.server.*); with enforcing, the broker's
        // own registration needs tls.enable=true. It authenticates as the broker does (authenticationEnabled).
        NameServer nameServer = new NameServer(NamesrvSettings.defaults().withListen(bindHost, port)
                .withTls(Broker.serverTls(settings)).withAuthentication(namesrvAuthentication(settings)));
        nameServer.start();
        Broker broker = new Broker(settings);
        try {
            broker.start();
        } catch (IOException | RuntimeException e) {
            nameServer.close();
            throw e;
        }
        LOG.info("standalone: name server on {}:{}, broker {} on {}:{} advertised as {}", bindHost,
                nameServer.port(), settings.brokerName(), settings.bindAddress(), broker.port(),
                broker.addressText());
        return new Running(nameServer, broker);
    }

    /**
     * The embedded name server's authentication, from the broker's keys: with {@code authenticationEnabled} it
     * knows the administrator ({@code initAuthenticationUser}) and the broker ({@code
     * innerClientAuthenticationCredentials}), as a name server given the same keys in namesrv.conf does.
     *
     * @throws IllegalArgumentException when authentication is on without inner credentials: the name server would
     *                                  refuse the broker's own registration
     */
    static NamesrvAuthentication namesrvAuthentication(BrokerSettings settings) {
        if (!settings.get(BrokerConfigKeys.AUTHENTICATION_ENABLED)) {
            return NamesrvAuthentication.DISABLED;
        }
        Optional<Credentials> inner = NamesrvAuthentication.parseInner(
                settings.get(BrokerConfigKeys.INNER_CLIENT_AUTHENTICATION_CREDENTIALS));
        if (inner.isEmpty()) {
            throw new IllegalArgumentException("standalone with authenticationEnabled=true needs"
                    + " innerClientAuthenticationCredentials: the embedded name server refuses unsigned"
                    + " registrations, and the broker signs its own with them");
        }
        return new NamesrvAuthentication(true, NamesrvAuthentication.parseUser(
                settings.get(BrokerConfigKeys.INIT_AUTHENTICATION_USER)), inner);
    }

    /** The keys {@code file} sets. */
    private static Set<String> keysOf(Path file) throws IOException {
        Properties properties = new Properties();
        try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            properties.load(reader);
        }
        return properties.stringPropertyNames();
    }

    /** A copy of {@code settings} registering with {@code namesrvAddr}. */
    static BrokerSettings withNamesrv(BrokerSettings settings, String namesrvAddr) {
        return with(settings, Map.of(BrokerConfigKeys.NAMESRV_ADDR.name(), namesrvAddr));
    }

    /** A copy of {@code settings} with {@code overrides} (key names to values as broker.conf has them). */
    static BrokerSettings with(BrokerSettings settings, Map<String, String> overrides) {
        Properties properties = new Properties();
        for (Map.Entry<String, String> e : settings.toProperties().entrySet()) {
            properties.setProperty(e.getKey(), e.getValue());
        }
        overrides.forEach(properties::setProperty);
        return BrokerConfigLoader.parse(properties, "standalone settings");
    }

    /**
     * A running standalone pair.
     *
     * @param nameServer the embedded name server
     * @param broker     the broker registered with it
     */
    record Running(NameServer nameServer, Broker broker) implements AutoCloseable {

        /** Closes the broker (it unregisters), then the name server. */
        @Override
        public void close() {
            broker.close();
            nameServer.close();
        }
    }
}
