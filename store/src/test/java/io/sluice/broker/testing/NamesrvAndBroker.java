package io.sluice.broker.testing;

import io.sluice.broker.Broker;
import io.sluice.broker.config.BrokerSettings;
import io.sluice.namesrv.NameServer;
import io.sluice.namesrv.NamesrvSettings;
import io.sluice.remoting.transport.ServerTls;
import io.sluice.store.StoreEnvironment;
import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.agrona.concurrent.SystemEpochClock;

/**
 * An embedded name server and broker on free loopback ports, with small store files, for integration tests that
 * drive them with the Apache client. Closing stops both.
 */
public final class NamesrvAndBroker implements AutoCloseable {

    private final NameServer namesrv;
    private final Broker broker;

    private NamesrvAndBroker(NameServer namesrv, Broker broker) {
        this.namesrv = namesrv;
        this.broker = broker;
    }

    /**
     * Starts both. {@code overrides} are broker.conf keys applied after the test defaults (loopback address, port
     * 0, store under {@code dir}, 16 MiB CommitLog files, small consume-queue and key-index files).
     */
    public static NamesrvAndBroker start(Path dir, Map<String, String> overrides) throws IOException {
        return start(dir, overrides, ServerTls.disabled(), StoreEnvironment.system());
    }

    /** Starts both, the name server's port with {@code namesrvTls}; see {@link #start(Path, Map)}. */
    public static NamesrvAndBroker start(Path dir, Map<String, String> overrides, ServerTls namesrvTls)
            throws IOException {
        return start(dir, overrides, namesrvTls, StoreEnvironment.system());
    }

    /** {@link #start(Path, Map)} with the store in {@code storeEnv} (a simulated disk, say). */
    public static NamesrvAndBroker start(Path dir, Map<String, String> overrides, StoreEnvironment storeEnv)
            throws IOException {
        return start(dir, overrides, ServerTls.disabled(), storeEnv);
    }

    private static NamesrvAndBroker start(Path dir, Map<String, String> overrides, ServerTls namesrvTls,
                                          StoreEnvironment storeEnv) throws IOException {
        NameServer namesrv = new NameServer(NamesrvSettings.defaults().withListen("127.0.0.1", 0)
                .withTls(namesrvTls));
        namesrv.start();
        try {
            Map<String, String> conf = new LinkedHashMap<>();
            conf.put("namesrvAddr", "127.0.0.1:" + namesrv.port());
            conf.put("listenPort", "0");
            conf.put("brokerIP1", "127.0.0.1");
            conf.put("storePathRootDir", dir.toString());
            conf.put("mappedFileSizeCommitLog", Integer.toString(16 * 1024 * 1024));
            conf.put("mappedFileSizeConsumeQueue", Integer.toString(20 * 10_000));
            conf.put("mapperFileSizeBatchConsumeQueue", Integer.toString(46 * 10_000));
            conf.put("maxHashSlotNum", "100000");
            conf.put("maxIndexNum", "400000");
            conf.putAll(overrides);
            BrokerSettings.Builder settings = BrokerSettings.builder();
            conf.forEach(settings::setText);
            Broker broker = new Broker(settings.build(), SystemEpochClock.INSTANCE, storeEnv);
            broker.start();
            return new NamesrvAndBroker(namesrv, broker);
        } catch (IOException | RuntimeException e) {
            namesrv.close();
            throw e;
        }
    }

    /** {@code 127.0.0.1:port} of the name server. */
    public String namesrvAddr() {
        return "127.0.0.1:" + namesrv.port();
    }

    /** {@code ip:port} the broker advertises. */
    public String brokerAddr() {
        return broker.addressText();
    }

    public Broker broker() {
        return broker;
    }

    @Override
    public void close() {
        broker.close();
        namesrv.close();
    }
}
