package io.sluice.broker.testing;

import io.sluice.broker.Broker;
import io.sluice.broker.config.BrokerSettings;
import io.sluice.namesrv.NameServer;
import io.sluice.namesrv.NamesrvSettings;
import io.sluice.remoting.transport.ServerTls;
import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * An embedded name server with a master ({@code brokerId=0}) and slaves ({@code brokerId=1} and up) of broker group
 * {@code broker-a} on free loopback ports (HA port too), each with its own store under {@code dir}, small store
 * files. Either broker can be stopped and started again on the same store. Closing stops everything.
 */
public final class ReplicaPair implements AutoCloseable {

    private final Path dir;
    private final NameServer namesrv;
    private final Map<String, String> masterConf;
    private final Map<String, String> slaveConf;
    private Broker master;
    /** The running slaves by brokerId. */
    private final Map<Long, Broker> slaves = new TreeMap<>();

    private ReplicaPair(Path dir, NameServer namesrv, Map<String, String> masterConf, Map<String, String> slaveConf) {
        this.dir = dir;
        this.namesrv = namesrv;
        this.masterConf = masterConf;
        this.slaveConf = slaveConf;
    }

    /**
     * Starts the name server and the master; the slave is started by {@link #startSlave()}. {@code masterRole} is
     * ASYNC_MASTER or SYNC_MASTER; {@code common} are broker.conf keys for both brokers.
     */
    public static ReplicaPair startMaster(Path dir, String masterRole, Map<String, String> common)
            throws IOException {
        return startMaster(dir, masterRole, common, ServerTls.disabled());
    }

    /** As {@link #startMaster(Path, String, Map)}, the name server's client port with {@code namesrvTls}. */
    public static ReplicaPair startMaster(Path dir, String masterRole, Map<String, String> common,
                                         ServerTls namesrvTls) throws IOException {
        NameServer namesrv = new NameServer(NamesrvSettings.defaults().withListen("127.0.0.1", 0)
                .withTls(namesrvTls));
        namesrv.start();
        Map<String, String> base = new LinkedHashMap<>();
        base.put("namesrvAddr", "127.0.0.1:" + namesrv.port());
        base.put("brokerName", "broker-a");
        base.put("listenPort", "0");
        base.put("haListenPort", "0");
        base.put("brokerIP1", "127.0.0.1");
        base.put("mappedFileSizeCommitLog", Integer.toString(16 * 1024 * 1024));
        base.put("mappedFileSizeConsumeQueue", Integer.toString(20 * 10_000));
        base.put("mapperFileSizeBatchConsumeQueue", Integer.toString(46 * 10_000));
        base.putAll(common);
        Map<String, String> masterConf = new LinkedHashMap<>(base);
        masterConf.put("brokerId", "0");
        masterConf.put("brokerRole", masterRole);
        masterConf.put("storePathRootDir", dir.resolve("master").toString());
        Map<String, String> slaveConf = new LinkedHashMap<>(base);
        slaveConf.put("brokerId", "1");
        slaveConf.put("brokerRole", "SLAVE");
        slaveConf.put("storePathRootDir", dir.resolve("slave").toString());
        ReplicaPair pair = new ReplicaPair(dir, namesrv, masterConf, slaveConf);
        try {
            pair.startMasterAgain();
            return pair;
        } catch (IOException | RuntimeException e) {
            pair.close();
            throw e;
        }
    }

    /** Starts the master (again) on its store. */
    public Broker startMasterAgain() throws IOException {
        master = start(masterConf);
        return master;
    }

    /** Starts the slave (again) on its store. */
    public Broker startSlave() throws IOException {
        return startSlave(1, Map.of());
    }

    /**
     * Starts slave {@code brokerId} (again) on its own store ({@code slave} for brokerId 1, else
     * {@code slave-<brokerId>}), with {@code extra} broker.conf keys over the common ones.
     */
    public Broker startSlave(long brokerId, Map<String, String> extra) throws IOException {
        Map<String, String> conf = new LinkedHashMap<>(slaveConf);
        conf.put("brokerId", Long.toString(brokerId));
        if (brokerId != 1) {
            conf.put("storePathRootDir", dir.resolve("slave-" + brokerId).toString());
        }
        conf.putAll(extra);
        Broker slave = start(conf);
        slaves.put(brokerId, slave);
        return slave;
    }

    private static Broker start(Map<String, String> conf) throws IOException {
        BrokerSettings.Builder settings = BrokerSettings.builder();
        conf.forEach(settings::setText);
        Broker broker = new Broker(settings.build());
        broker.start();
        return broker;
    }

    /** Stops the slave (a clean shutdown). */
    public void stopSlave() {
        stopSlave(1);
    }

    /** Stops slave {@code brokerId} (a clean shutdown). */
    public void stopSlave(long brokerId) {
        slaves.remove(brokerId).close();
    }

    /** Stops the master (a clean shutdown: it unregisters, so routes list only the slave). */
    public void stopMaster() {
        master.close();
        master = null;
    }

    /** {@code 127.0.0.1:port} of the name server. */
    public String namesrvAddr() {
        return "127.0.0.1:" + namesrv.port();
    }

    public Broker master() {
        return master;
    }

    /** Slave 1, or null when it is not running. */
    public Broker slave() {
        return slave(1);
    }

    /** Slave {@code brokerId}, or null when it is not running. */
    public Broker slave(long brokerId) {
        return slaves.get(brokerId);
    }

    /** Where the stores live. */
    public Path dir() {
        return dir;
    }

    @Override
    public void close() {
        slaves.values().forEach(Broker::close);
        slaves.clear();
        if (master != null) {
            master.close();
        }
        namesrv.close();
    }
}
