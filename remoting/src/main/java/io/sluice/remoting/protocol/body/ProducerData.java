package io.sluice.remoting.protocol.body;

/**
 * One producer group of a client in a heartbeat: {@code {"groupName":"CLIENT_INNER_PRODUCER"}}.
 *
 * @param groupName the producer group
 */
public record ProducerData(String groupName) {

    /** Validates the name. */
    public ProducerData {
        Copies.required(groupName, "groupName");
    }
}
