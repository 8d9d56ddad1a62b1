package io.sluice.namesrv.route;

import io.sluice.remoting.protocol.body.BrokerData;
import io.sluice.remoting.protocol.body.ClusterInfo;
import io.sluice.remoting.protocol.body.DataVersion;
import io.sluice.remoting.protocol.body.QueueData;
import io.sluice.remoting.protocol.body.TopicConfigWire;
import io.sluice.remoting.protocol.body.TopicRouteData;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The name server's routing state (docs/wire-protocol.md#name-server):
 * <pre>
 * clusters   cluster name       -> broker names
 * brokers    broker name        -> cluster, broker id -> address, acting-master flag, highest master epoch
 * topics     topic              -> broker name -> QueueData
 * live       (cluster, address) -> last registration time, timeout, data version, connection, HA address
 * filters    (cluster, address) -> filter-server addresses
 * </pre>
 * Registration is additive: a full registration adds or updates queue data but never removes topics. A broker
 * name's queue data disappears only when its last address goes away (unregistered, connection closed, expired),
 * or through {@link #deleteTopic}.
 *
 * <p>A broker in controller mode sends the controller's master epoch of its role. A master registration (id 0) with
 * a lower epoch than one already accepted for its broker name is refused: it comes from a demoted master that has
 * not heard of its demotion yet (frozen or partitioned while another replica was elected) and must not take the
 * elected master's id. The epoch is forgotten with the broker name, so a controller whose epochs start again is not
 * locked out. Registrations without an epoch are never refused for it. An unregistration removes an address only
 * under the id it is registered with.
 *
 * <p>Thread-safe. One {@link ReentrantReadWriteLock} guards every table: the write lock is taken by whichever
 * thread mutates (request handlers for register/unregister/delete, the transport's close callback, the expiry
 * scan) and the read lock by the query handlers; each public method holds it only for its own duration and never
 * while doing I/O. Results are immutable snapshots.
 */
public final class RouteTable {

    private static final Logger LOG = LoggerFactory.getLogger(RouteTable.class);

    /** Apache's PERM_WRITE bit, cleared from queue data registered by an acting-master slave. */
    private static final int PERM_WRITE = 2;

    private final long defaultBrokerTimeoutMs;
    private final LongSupplier clockMs;

    private final ReadWriteLock lock = new ReentrantReadWriteLock();
    private final Map<String, Set<String>> clusters = new TreeMap<>();
    private final Map<String, BrokerEntry> brokers = new TreeMap<>();
    private final Map<String, Map<String, QueueData>> topics = new TreeMap<>();
    private final Map<BrokerAddrKey, LiveBroker> live = new HashMap<>();
    private final Map<BrokerAddrKey, List<String>> filterServers = new HashMap<>();

    /**
     * Creates an empty table.
     *
     * @param defaultBrokerTimeoutMs how long a broker that did not say otherwise stays alive without registering
     * @param clockMs source of epoch milliseconds for registration times
     */
    public RouteTable(long defaultBrokerTimeoutMs, LongSupplier clockMs) {
        if (defaultBrokerTimeoutMs <= 0) {
            throw new IllegalArgumentException("defaultBrokerTimeoutMs must be positive: " + defaultBrokerTimeoutMs);
        }
        this.defaultBrokerTimeoutMs = defaultBrokerTimeoutMs;
        this.clockMs = Objects.requireNonNull(clockMs, "clockMs");
    }

    /**
     * Applies a REGISTER_BROKER request (docs/wire-protocol.md#broker-registration).
     *
     * @param registration the decoded request
     * @return whether it was applied, and the master's address for a slave
     */
    public RegisterResult register(BrokerRegistration registration) {
        Map<String, TopicConfigWire> topicConfigs = registration.topicConfigs().topicConfigTable();
        lock.writeLock().lock();
        try {
            BrokerEntry entry = brokers.get(registration.brokerName());
            if (isStaleMaster(registration, entry)) {
                LOG.warn("refused registration of {} id 0 at {} with master epoch {}: epoch {} is known, master {}",
                        registration.brokerName(), registration.brokerAddr(), registration.masterEpoch(),
                        entry.masterEpoch, entry.addrs.get(BrokerData.MASTER_ID));
                return RegisterResult.staleMasterEpoch(entry.masterEpoch);
            }
            boolean knownId = entry != null && entry.addrs.containsKey(registration.brokerId());
            if (!knownId && topicConfigs.size() == 1) {
                LOG.warn("rejected incremental registration of {} id {} at {}: no full registration yet",
                        registration.brokerName(), registration.brokerId(), registration.brokerAddr());
                return RegisterResult.REJECTED;
            }
            clusters.computeIfAbsent(registration.clusterName(), name -> new TreeSet<>())
                    .add(registration.brokerName());
            if (entry == null) {
                entry = new BrokerEntry(registration.clusterName(), registration.brokerName());
                brokers.put(registration.brokerName(), entry);
            }
            entry.enableActingMaster = registration.enableActingMaster();
            String addr = registration.brokerAddr();
            long brokerId = registration.brokerId();
            entry.addrs.entrySet().removeIf(e -> e.getValue().equals(addr) && e.getKey() != brokerId);
            String previousAddr = entry.addrs.put(brokerId, addr);
            boolean firstRegistration = previousAddr == null;

            BrokerAddrKey key = new BrokerAddrKey(registration.clusterName(), addr);
            DataVersion version = registration.topicConfigs().dataVersion();
            boolean master = brokerId == BrokerData.MASTER_ID;
            if (master) {
                entry.masterEpoch = Math.max(entry.masterEpoch, registration.masterEpoch());
            }
            boolean primeSlave = !master && registration.enableActingMaster()
                    && brokerId == Collections.min(entry.addrs.keySet());
            if (master || primeSlave) {
                LiveBroker previous = live.get(key);
                boolean versionChanged = previous == null || !previous.dataVersion.equals(version);
                applyTopicConfigs(registration.brokerName(), topicConfigs, firstRegistration || versionChanged,
                        primeSlave);
            }
            long timeoutMs = registration.heartbeatTimeoutMs() > 0
                    ? registration.heartbeatTimeoutMs() : defaultBrokerTimeoutMs;
            LiveBroker before = live.put(key, new LiveBroker(clockMs.getAsLong(), timeoutMs, version,
                    registration.connection(), registration.haServerAddr()));
            if (before == null) {
                LOG.info("broker registered: {} {} id {} at {}", registration.clusterName(),
                        registration.brokerName(), brokerId, addr);
            }
            if (registration.filterServerList().isEmpty()) {
                filterServers.remove(key);
            } else {
                filterServers.put(key, registration.filterServerList());
            }
            return master ? RegisterResult.ACCEPTED_NO_MASTER : resultForSlave(entry);
        } finally {
            lock.writeLock().unlock();
        }
    }

    /**
     * Whether {@code registration} claims the master id with a lower controller epoch than an accepted master
     * registration of its broker name carried. Caller holds the write lock.
     */
    private static boolean isStaleMaster(BrokerRegistration registration, BrokerEntry entry) {
        return entry != null && registration.brokerId() == BrokerData.MASTER_ID && registration.masterEpoch() > 0
                && registration.masterEpoch() < entry.masterEpoch;
    }

    /** Caller holds the write lock. */
    private void applyTopicConfigs(String brokerName, Map<String, TopicConfigWire> configs, boolean allTopics,
                                   boolean primeSlave) {
        for (TopicConfigWire config : configs.values()) {
            Map<String, QueueData> byBroker = topics.get(config.topicName());
            if (!allTopics && byBroker != null && byBroker.containsKey(brokerName)) {
                continue;
            }
            QueueData queueData = QueueData.from(brokerName, config);
            if (primeSlave) {
                queueData = new QueueData(brokerName, queueData.readQueueNums(), queueData.writeQueueNums(),
                        queueData.perm() & ~PERM_WRITE, queueData.topicSysFlag());
            }
            topics.computeIfAbsent(config.topicName(), topic -> new TreeMap<>()).put(brokerName, queueData);
        }
    }

    /** Caller holds the write lock. */
    private RegisterResult resultForSlave(BrokerEntry entry) {
        String masterAddr = entry.addrs.get(BrokerData.MASTER_ID);
        if (masterAddr == null) {
            return RegisterResult.ACCEPTED_NO_MASTER;
        }
        LiveBroker masterLive = live.get(new BrokerAddrKey(entry.cluster, masterAddr));
        if (masterLive == null) {
            return RegisterResult.ACCEPTED_NO_MASTER;
        }
        return new RegisterResult(RegisterResult.Status.ACCEPTED,
                Optional.of(new RegisterResult.MasterAddress(masterAddr, masterLive.haServerAddr)));
    }

    /**
     * Applies an UNREGISTER_BROKER request: removes the address as described in docs/wire-protocol.md#name-server.
     *
     * @param clusterName the broker's cluster
     * @param brokerAddr the broker's address
     * @param brokerName the broker name
     * @param brokerId the broker id
     * @return true if the address was registered under that name and id
     */
    public boolean unregister(String clusterName, String brokerAddr, String brokerName, long brokerId) {
        lock.writeLock().lock();
        try {
            BrokerAddrKey key = new BrokerAddrKey(clusterName, brokerAddr);
            live.remove(key);
            filterServers.remove(key);
            return removeAddress(clusterName, brokerName, brokerId, brokerAddr);
        } finally {
            lock.writeLock().unlock();
        }
    }

    /**
     * Removes every broker address whose latest registration arrived on {@code connection}, because that
     * connection closed.
     *
     * @param connection the closed connection
     * @return the removed addresses, empty if none was registered on it
     */
    public List<RemovedBroker> removeConnection(Object connection) {
        Objects.requireNonNull(connection, "connection");
        lock.writeLock().lock();
        try {
            List<RemovedBroker> removed = new ArrayList<>();
            Iterator<Map.Entry<BrokerAddrKey, LiveBroker>> it = live.entrySet().iterator();
            while (it.hasNext()) {
                Map.Entry<BrokerAddrKey, LiveBroker> entry = it.next();
                if (entry.getValue().connection.equals(connection)) {
                    it.remove();
                    removed.add(removeLiveAddress(entry.getKey(), connection));
                }
            }
            for (RemovedBroker broker : removed) {
                LOG.info("broker connection closed, routes removed: {} {} at {}", broker.clusterName(),
                        broker.brokerName(), broker.brokerAddr());
            }
            return removed;
        } finally {
            lock.writeLock().unlock();
        }
    }

    /**
     * Removes every broker address whose last registration is older than its timeout: an address registered at
     * time {@code t} with timeout {@code d} expires once {@code t + d < nowMs}.
     *
     * @param nowMs the current epoch milliseconds
     * @return the expired addresses with their connections, which the caller should close
     */
    public List<RemovedBroker> expire(long nowMs) {
        lock.writeLock().lock();
        try {
            List<RemovedBroker> removed = new ArrayList<>();
            Iterator<Map.Entry<BrokerAddrKey, LiveBroker>> it = live.entrySet().iterator();
            while (it.hasNext()) {
                Map.Entry<BrokerAddrKey, LiveBroker> entry = it.next();
                LiveBroker broker = entry.getValue();
                if (broker.lastUpdateMs + broker.timeoutMs < nowMs) {
                    it.remove();
                    removed.add(removeLiveAddress(entry.getKey(), broker.connection));
                }
            }
            for (RemovedBroker broker : removed) {
                LOG.warn("broker expired, routes removed: {} {} at {}", broker.clusterName(), broker.brokerName(),
                        broker.brokerAddr());
            }
            return removed;
        } finally {
            lock.writeLock().unlock();
        }
    }

    /** Caller holds the write lock and has removed the live entry already. */
    private RemovedBroker removeLiveAddress(BrokerAddrKey key, Object connection) {
        filterServers.remove(key);
        for (BrokerEntry entry : brokers.values()) {
            if (!entry.cluster.equals(key.clusterName())) {
                continue;
            }
            for (Map.Entry<Long, String> addr : entry.addrs.entrySet()) {
                if (addr.getValue().equals(key.brokerAddr())) {
                    long brokerId = addr.getKey();
                    String brokerName = entry.brokerName;
                    removeAddress(key.clusterName(), brokerName, brokerId, key.brokerAddr());
                    return new RemovedBroker(key.clusterName(), brokerName, brokerId, key.brokerAddr(), connection);
                }
            }
        }
        return new RemovedBroker(key.clusterName(), "", -1, key.brokerAddr(), connection);
    }

    /**
     * Removes {@code brokerAddr} from the broker name's addresses; when none is left, removes the broker name from
     * its cluster (and an empty cluster) and its queue data from every topic (and topics left without queue data).
     * Caller holds the write lock.
     */
    private boolean removeAddress(String clusterName, String brokerName, long brokerId, String brokerAddr) {
        BrokerEntry entry = brokers.get(brokerName);
        if (entry == null || !entry.addrs.remove(brokerId, brokerAddr)) {
            return false;
        }
        if (entry.addrs.isEmpty()) {
            brokers.remove(brokerName);
            Set<String> names = clusters.get(entry.cluster);
            if (names != null) {
                names.remove(brokerName);
                if (names.isEmpty()) {
                    clusters.remove(entry.cluster);
                }
            }
            Iterator<Map.Entry<String, Map<String, QueueData>>> it = topics.entrySet().iterator();
            while (it.hasNext()) {
                Map<String, QueueData> byBroker = it.next().getValue();
                byBroker.remove(brokerName);
                if (byBroker.isEmpty()) {
                    it.remove();
                }
            }
            LOG.info("broker name removed with its queue data: {} {} (last address {})", clusterName, brokerName,
                    brokerAddr);
        }
        return true;
    }

    /**
     * The route of a topic: every broker name hosting its queues that still has an address.
     *
     * @param topic the topic
     * @return the route, or empty when no queue data exists or none of its brokers is registered (TOPIC_NOT_EXIST)
     */
    public Optional<TopicRouteData> routeOf(String topic) {
        lock.readLock().lock();
        try {
            Map<String, QueueData> byBroker = topics.get(topic);
            if (byBroker == null) {
                return Optional.empty();
            }
            List<BrokerData> brokerDatas = new ArrayList<>(byBroker.size());
            List<QueueData> queueDatas = new ArrayList<>(byBroker.size());
            Map<String, List<String>> filterServerTable = new LinkedHashMap<>();
            for (QueueData queueData : byBroker.values()) {
                BrokerEntry entry = brokers.get(queueData.brokerName());
                if (entry == null || entry.addrs.isEmpty()) {
                    continue;
                }
                brokerDatas.add(entry.snapshot());
                queueDatas.add(queueData);
                for (String addr : entry.addrs.values()) {
                    List<String> filters = filterServers.get(new BrokerAddrKey(entry.cluster, addr));
                    if (filters != null) {
                        filterServerTable.put(addr, filters);
                    }
                }
            }
            if (brokerDatas.isEmpty()) {
                return Optional.empty();
            }
            return Optional.of(new TopicRouteData(brokerDatas, queueDatas, filterServerTable, null));
        } finally {
            lock.readLock().unlock();
        }
    }

    /**
     * Every registered broker and cluster.
     *
     * @return a snapshot
     */
    public ClusterInfo clusterInfo() {
        lock.readLock().lock();
        try {
            Map<String, BrokerData> brokerAddrTable = new LinkedHashMap<>();
            for (BrokerEntry entry : brokers.values()) {
                brokerAddrTable.put(entry.brokerName, entry.snapshot());
            }
            Map<String, Set<String>> clusterAddrTable = new LinkedHashMap<>();
            clusters.forEach((cluster, names) ->
                    clusterAddrTable.put(cluster, Collections.unmodifiableSet(new TreeSet<>(names))));
            return new ClusterInfo(brokerAddrTable, clusterAddrTable);
        } finally {
            lock.readLock().unlock();
        }
    }

    /**
     * Every topic that has queue data, including system and retry topics.
     *
     * @return the topic names, sorted
     */
    public Set<String> allTopics() {
        lock.readLock().lock();
        try {
            return Collections.unmodifiableSet(new TreeSet<>(topics.keySet()));
        } finally {
            lock.readLock().unlock();
        }
    }

    /**
     * Every topic with queue data on at least one broker name of a cluster.
     *
     * @param clusterName the cluster
     * @return the topic names, sorted; empty for an unknown cluster
     */
    public Set<String> topicsOfCluster(String clusterName) {
        lock.readLock().lock();
        try {
            Set<String> names = clusters.getOrDefault(clusterName, Set.of());
            Set<String> result = new TreeSet<>();
            topics.forEach((topic, byBroker) -> {
                if (!Collections.disjoint(byBroker.keySet(), names)) {
                    result.add(topic);
                }
            });
            return Collections.unmodifiableSet(result);
        } finally {
            lock.readLock().unlock();
        }
    }

    /**
     * Removes a topic's queue data (DELETE_TOPIC_IN_NAMESRV). A broker that still has the topic adds it back on its
     * next registration.
     *
     * @param topic the topic
     * @param clusterName only remove the queue data of this cluster's broker names; null or blank for all
     * @return true if any queue data was removed
     */
    public boolean deleteTopic(String topic, String clusterName) {
        lock.writeLock().lock();
        try {
            Map<String, QueueData> byBroker = topics.get(topic);
            if (byBroker == null) {
                return false;
            }
            boolean removed;
            if (clusterName == null || clusterName.isBlank()) {
                byBroker.clear();
                removed = true;
            } else {
                removed = byBroker.keySet().removeAll(clusters.getOrDefault(clusterName, Set.of()));
            }
            if (byBroker.isEmpty()) {
                topics.remove(topic);
            }
            return removed;
        } finally {
            lock.writeLock().unlock();
        }
    }

    /**
     * Compares a broker's topic-table version with the stored one (QUERY_DATA_VERSION) and refreshes the broker's
     * liveness if it is registered.
     *
     * @param clusterName the broker's cluster
     * @param brokerAddr the broker's address
     * @param version the broker's current version
     * @return whether it differs, and the stored version
     */
    public DataVersionCheck checkDataVersion(String clusterName, String brokerAddr, DataVersion version) {
        lock.writeLock().lock();
        try {
            LiveBroker broker = live.get(new BrokerAddrKey(clusterName, brokerAddr));
            if (broker == null) {
                return new DataVersionCheck(true, Optional.empty());
            }
            broker.lastUpdateMs = clockMs.getAsLong();
            return new DataVersionCheck(!broker.dataVersion.equals(version), Optional.of(broker.dataVersion));
        } finally {
            lock.writeLock().unlock();
        }
    }

    /**
     * Marks a registered broker address as alive now (BROKER_HEARTBEAT).
     *
     * @param clusterName the broker's cluster
     * @param brokerAddr the broker's address
     * @return false if the address is not registered
     */
    public boolean refresh(String clusterName, String brokerAddr) {
        lock.writeLock().lock();
        try {
            LiveBroker broker = live.get(new BrokerAddrKey(clusterName, brokerAddr));
            if (broker == null) {
                return false;
            }
            broker.lastUpdateMs = clockMs.getAsLong();
            return true;
        } finally {
            lock.writeLock().unlock();
        }
    }

    /**
     * Number of registered broker addresses.
     *
     * @return the count
     */
    public int liveBrokerCount() {
        lock.readLock().lock();
        try {
            return live.size();
        } finally {
            lock.readLock().unlock();
        }
    }

    /** Identity of one broker address. */
    private record BrokerAddrKey(String clusterName, String brokerAddr) {
    }

    /** Liveness of one broker address. Mutated only under the write lock. */
    private static final class LiveBroker {
        private long lastUpdateMs;
        private final long timeoutMs;
        private final DataVersion dataVersion;
        private final Object connection;
        private final String haServerAddr;

        LiveBroker(long lastUpdateMs, long timeoutMs, DataVersion dataVersion, Object connection,
                   String haServerAddr) {
            this.lastUpdateMs = lastUpdateMs;
            this.timeoutMs = timeoutMs;
            this.dataVersion = dataVersion;
            this.connection = connection;
            this.haServerAddr = haServerAddr;
        }
    }

    /** One broker name. Mutated only under the write lock. */
    private static final class BrokerEntry {
        private final String cluster;
        private final String brokerName;
        private final Map<Long, String> addrs = new TreeMap<>();
        private boolean enableActingMaster;
        /** The highest controller master epoch an accepted master registration carried; 0 if none carried one. */
        private int masterEpoch;

        BrokerEntry(String cluster, String brokerName) {
            this.cluster = cluster;
            this.brokerName = brokerName;
        }

        BrokerData snapshot() {
            return new BrokerData(cluster, brokerName, addrs, enableActingMaster);
        }
    }
}
