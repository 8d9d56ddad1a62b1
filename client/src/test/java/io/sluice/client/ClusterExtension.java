package io.sluice.client;

import io.sluice.testing.Await;
import io.sluice.format.ConsumeQueueType;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Stream;

/**
 * Starts the Sluice and the Apache cluster side by side for an IT class, and stops them. Each IT class calls
 * {@link #startBoth()} in its {@code @BeforeAll} and {@link #stopAll()} in its {@code @AfterAll}.
 */
final class ClusterExtension {
    private static List<TestCluster> clusters = List.of();

    private ClusterExtension() {
    }

    /** Starts both clusters concurrently. */
    static synchronized void startBoth() {
        CompletableFuture<TestCluster> sluice = CompletableFuture.supplyAsync(() -> TestCluster.start("sluice"));
        CompletableFuture<TestCluster> apache = CompletableFuture.supplyAsync(() -> TestCluster.start("apache"));
        try {
            clusters = List.of(sluice.join(), apache.join());
        } catch (RuntimeException e) {
            sluice.thenAccept(TestCluster::stop);
            apache.thenAccept(TestCluster::stop);
            throw e;
        }
    }

    /** Stops every started cluster. */
    static synchronized void stopAll() {
        clusters.forEach(TestCluster::stop);
        clusters = List.of();
    }

    /** Creates a topic with a unique name starting with {@code prefix} and waits for its route. */
    static String createTopic(TestCluster cluster, String prefix, int queues, ConsumeQueueType type) {
        String topic = prefix + "_" + Long.toHexString(System.nanoTime());
        try (Admin admin = Admin.start(cluster.connection())) {
            admin.createTopic(TopicSpec.of(topic, queues).withQueueType(type), TestCluster.CLUSTER);
            Await.until("route of " + topic, () -> {
                try {
                    return !admin.topicRoute(topic).queueDatas().isEmpty();
                } catch (ClientException e) {
                    return false;
                }
            });
        }
        return topic;
    }

    /** The running clusters, for {@code @MethodSource}. */
    static synchronized Stream<TestCluster> clusters() {
        return clusters.stream();
    }
}
