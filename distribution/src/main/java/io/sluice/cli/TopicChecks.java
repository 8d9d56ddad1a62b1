package io.sluice.cli;

import io.sluice.client.Admin;
import io.sluice.client.BrokerErrorException;
import io.sluice.remoting.protocol.ResponseCode;
import java.util.Optional;

/**
 * Existence checks the client commands make before they act, so that a missing topic is a one-line error at once
 * rather than a command that waits forever (consume) or reports success for nothing (delete). Stateless.
 */
final class TopicChecks {

    private TopicChecks() {
    }

    /** Fails naming the topic when the name servers have no route for it. */
    static void requireRoute(Admin admin, String topic) {
        try {
            admin.topicRoute(topic);
        } catch (BrokerErrorException e) {
            if (e.code() == ResponseCode.TOPIC_NOT_EXIST) {
                throw new IllegalArgumentException("topic '" + topic + "' does not exist (the name server has no"
                        + " route for it); create it with: sluice admin topic create -t " + topic);
            }
            throw e;
        }
    }

    /** The address of the first master of {@code cluster} that has {@code topic}; empty when none has it. */
    static Optional<String> masterWith(Admin admin, String topic, String cluster) {
        for (String address : admin.masterAddresses(cluster)) {
            if (admin.topicConfig(topic, address) != null) {
                return Optional.of(address);
            }
        }
        return Optional.empty();
    }
}
