package io.sluice.benchmark.load;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.stream.Collectors;

/** The systems {@code bin/sluice bench} compares: which servers to start and which client drives them. */
enum BenchSystem {

    /** The Sluice broker with the Sluice client. */
    SLUICE("sluice"),
    /** The Sluice broker with the Apache RocketMQ 5.3 client. */
    SLUICE_APACHE_CLIENT("sluice-apache-client"),
    /** The Apache RocketMQ name server and broker with the Apache RocketMQ 5.3 client. */
    ROCKETMQ("rocketmq"),
    /** Kafka (KRaft, combined mode) with the Kafka client. */
    KAFKA("kafka");

    private final String label;

    BenchSystem(String label) {
        this.label = label;
    }

    String label() {
        return label;
    }

    /** The system named {@code text}; the exception lists the names. */
    static BenchSystem of(String text) {
        for (BenchSystem system : values()) {
            if (system.label.equalsIgnoreCase(text.strip())) {
                return system;
            }
        }
        throw new IllegalArgumentException("unknown system '" + text + "'; known: "
                + Arrays.stream(values()).map(BenchSystem::label).collect(Collectors.joining(", ")));
    }

    /** Its broker answers GET_BROKER_RUNTIME_INFO with {@code dispatchBehindBytes} (the RocketMQ protocol). */
    boolean reportsDispatchLag() {
        return this != KAFKA;
    }

    /** Starts this system's servers. */
    Peer startPeer(PeerOptions options, Path dir) throws IOException, InterruptedException {
        return switch (this) {
            case SLUICE, SLUICE_APACHE_CLIENT -> Peer.sluice(options, dir);
            case ROCKETMQ -> Peer.rocketmq(options, dir);
            case KAFKA -> Peer.kafka(options, dir);
        };
    }

    /** The client side for {@code peer}. */
    Driver driver(Peer peer, boolean batchCq) {
        return switch (this) {
            case SLUICE -> new SluiceDriver(peer.namesrvAddr(), peer.brokerAddr(), batchCq);
            case SLUICE_APACHE_CLIENT, ROCKETMQ -> new ApacheRocketMqDriver(peer.namesrvAddr(), peer.brokerAddr(),
                    batchCq);
            case KAFKA -> new KafkaDriver(peer.brokerAddr());
        };
    }
}
