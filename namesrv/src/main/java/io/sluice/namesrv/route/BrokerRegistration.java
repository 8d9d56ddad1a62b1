package io.sluice.namesrv.route;

import io.sluice.remoting.protocol.body.TopicConfigSerializeWrapper;
import java.util.List;
import java.util.Objects;

/**
 * One REGISTER_BROKER request, decoded: who the broker is, its topics, and the connection it arrived on.
 *
 * @param clusterName the broker's cluster
 * @param brokerAddr the client-facing {@code ip:port}
 * @param brokerName the broker name (shared by a master and its slaves)
 * @param brokerId 0 for the master, 1 and up for slaves; never negative
 * @param haServerAddr the HA address (informational), may be empty
 * @param heartbeatTimeoutMs how long the broker stays alive without registering again; 0 means the table's default
 * @param enableActingMaster whether the broker runs in "slave acting master" mode
 * @param masterEpoch the controller's master epoch of the broker's role (Sluice's {@code masterEpoch} header, sent
 *                    by brokers in controller mode); 0 when not sent (Apache brokers, brokers without a controller)
 * @param topicConfigs the broker's topics (all of them, or only the changed ones) and their version
 * @param filterServerList filter-server addresses, normally empty
 * @param connection opaque identity of the connection the request arrived on, compared with {@code equals}; the
 *                   route is dropped when that connection closes
 */
public record BrokerRegistration(
        String clusterName,
        String brokerAddr,
        String brokerName,
        long brokerId,
        String haServerAddr,
        long heartbeatTimeoutMs,
        boolean enableActingMaster,
        int masterEpoch,
        TopicConfigSerializeWrapper topicConfigs,
        List<String> filterServerList,
        Object connection) {

    /** Validates the identity fields. */
    public BrokerRegistration {
        requireText(clusterName, "clusterName");
        requireText(brokerAddr, "brokerAddr");
        requireText(brokerName, "brokerName");
        if (brokerId < 0) {
            throw new IllegalArgumentException("brokerId must not be negative: " + brokerId);
        }
        if (heartbeatTimeoutMs < 0) {
            throw new IllegalArgumentException("heartbeatTimeoutMs must not be negative: " + heartbeatTimeoutMs);
        }
        if (masterEpoch < 0) {
            throw new IllegalArgumentException("masterEpoch must not be negative: " + masterEpoch);
        }
        haServerAddr = haServerAddr == null ? "" : haServerAddr;
        Objects.requireNonNull(topicConfigs, "topicConfigs");
        filterServerList = filterServerList == null ? List.of() : List.copyOf(filterServerList);
        Objects.requireNonNull(connection, "connection");
    }

    /** A registration without a master epoch, as every broker outside controller mode sends. */
    public BrokerRegistration(String clusterName, String brokerAddr, String brokerName, long brokerId,
                              String haServerAddr, long heartbeatTimeoutMs, boolean enableActingMaster,
                              TopicConfigSerializeWrapper topicConfigs, List<String> filterServerList,
                              Object connection) {
        this(clusterName, brokerAddr, brokerName, brokerId, haServerAddr, heartbeatTimeoutMs, enableActingMaster, 0,
                topicConfigs, filterServerList, connection);
    }

    static void requireText(String value, String name) {
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException(name + " must not be blank: '" + value + "'");
        }
    }
}
