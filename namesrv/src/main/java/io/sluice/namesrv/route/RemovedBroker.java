package io.sluice.namesrv.route;

/**
 * A broker address that left the route table because it expired or its connection closed.
 *
 * @param clusterName the broker's cluster
 * @param brokerName the broker name
 * @param brokerId the id the address was registered under, or -1 if no id mapped to it any more
 * @param brokerAddr the removed {@code ip:port}
 * @param connection the connection the broker last registered on (the caller closes it after an expiry)
 */
public record RemovedBroker(String clusterName, String brokerName, long brokerId, String brokerAddr,
                            Object connection) {
}
