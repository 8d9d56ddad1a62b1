package io.sluice.remoting.protocol.body;

import java.util.Set;

/**
 * Body of a HEART_BEAT (34) request: every producer and consumer group of one client instance.
 * <pre>
 * {"clientID":"192.0.2.2@instance","consumerDataSet":[{ConsumerData}],"heartbeatFingerprint":0,
 *  "producerDataSet":[{"groupName":"CLIENT_INNER_PRODUCER"}],"withoutSub":false}
 * </pre>
 *
 * @param clientID the client id, {@code <ip>@<instanceName>[@<unitName>][@STREAM]}
 * @param producerDataSet the client's producer groups; never null
 * @param consumerDataSet the client's consumer groups; never null
 * @param heartbeatFingerprint heartbeat V2 fingerprint, 0 unless V2 is enabled on the client
 * @param withoutSub heartbeat V2: true when subscriptions were omitted because they did not change
 */
public record HeartbeatData(
        String clientID,
        Set<ProducerData> producerDataSet,
        Set<ConsumerData> consumerDataSet,
        int heartbeatFingerprint,
        boolean withoutSub) {

    /** Validates the client id and normalises absent members. */
    public HeartbeatData {
        Copies.required(clientID, "clientID");
        producerDataSet = Copies.set(producerDataSet, "producerDataSet");
        consumerDataSet = Copies.set(consumerDataSet, "consumerDataSet");
    }
}
