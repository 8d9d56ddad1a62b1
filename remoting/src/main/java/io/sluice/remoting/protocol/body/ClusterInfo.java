package io.sluice.remoting.protocol.body;

import java.util.Map;
import java.util.Set;

/**
 * Body of a GET_BROKER_CLUSTER_INFO (106) response:
 * <pre>
 * {"brokerAddrTable":{"broker-a":{BrokerData}},"clusterAddrTable":{"DefaultCluster":["broker-a"]}}
 * </pre>
 *
 * @param brokerAddrTable broker name to its data; never null
 * @param clusterAddrTable cluster name to the broker names in it; never null
 */
public record ClusterInfo(Map<String, BrokerData> brokerAddrTable, Map<String, Set<String>> clusterAddrTable) {

    /** Normalises absent members. */
    public ClusterInfo {
        brokerAddrTable = Copies.map(brokerAddrTable, "brokerAddrTable");
        clusterAddrTable = Copies.map(clusterAddrTable, "clusterAddrTable");
    }
}
