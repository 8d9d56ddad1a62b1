package io.sluice.remoting.protocol.body;

import java.util.Map;

/**
 * One broker name and its addresses, as listed in routes and cluster info:
 * {@code {"brokerAddrs":{"0":"127.0.0.1:10911"},"brokerName":"broker-a","cluster":"DefaultCluster",
 * "enableActingMaster":false}}. Broker id 0 is the master, ids 1 and up are slaves; producers only use brokers
 * that have id 0. The id keys are written as quoted decimal strings (standard JSON), which the Apache client
 * accepts.
 *
 * @param cluster cluster name
 * @param brokerName broker name (shared by a master and its slaves)
 * @param brokerAddrs broker id to {@code ip:port}; never null
 * @param enableActingMaster whether the broker runs in "slave acting master" mode
 */
public record BrokerData(String cluster, String brokerName, Map<Long, String> brokerAddrs, boolean enableActingMaster) {

    /** The id of a master broker. */
    public static final long MASTER_ID = 0L;

    /** Validates the name and normalises absent members. */
    public BrokerData {
        Copies.required(brokerName, "brokerName");
        brokerAddrs = Copies.map(brokerAddrs, "brokerAddrs");
    }
}
