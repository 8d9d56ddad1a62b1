package io.sluice.benchmark.omb;

import io.openmessaging.benchmark.driver.BenchmarkConsumer;
import io.openmessaging.benchmark.driver.BenchmarkDriver;
import io.openmessaging.benchmark.driver.BenchmarkProducer;
import io.openmessaging.benchmark.driver.ConsumerCallback;
import io.sluice.client.Admin;
import io.sluice.client.ConnectionSettings;
import io.sluice.client.LitePullConsumer;
import io.sluice.client.Producer;
import io.sluice.client.TopicSpec;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.bookkeeper.stats.StatsLogger;

/**
 * OMB's driver for Sluice through Sluice's own client: topics made with {@link Admin} (BatchCQ unless the YAML says
 * {@code batchCQ: false}, partitions = queues), one auto-batching {@link Producer} per OMB producer, one
 * {@link LitePullConsumer} per OMB consumer. Settings come from the driver YAML ({@link DriverSettings}).
 *
 * <p>OMB calls {@link #initialize} once, then creates topics, producers and consumers from its own threads;
 * {@link #close()} closes whatever of them OMB left open, then the admin client.
 */
public final class SluiceBenchmarkDriver implements BenchmarkDriver {
    private final AtomicInteger clients = new AtomicInteger();
    private final List<AutoCloseable> opened = new ArrayList<>();
    private DriverSettings settings;
    private ConnectionSettings connection;
    private Admin admin;

    /** OMB instantiates drivers reflectively, by this constructor. */
    public SluiceBenchmarkDriver() {
    }

    @Override
    public void initialize(File configurationFile, StatsLogger statsLogger) throws IOException {
        String yaml = Files.readString(configurationFile.toPath(), StandardCharsets.UTF_8);
        try {
            settings = DriverSettings.parse(yaml);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(configurationFile + ": " + e.getMessage(), e);
        }
        connection = ConnectionSettings.of(settings.namesrvAddr());
        admin = Admin.start(connection.withInstanceName(instanceName("admin")));
    }

    @Override
    public String getTopicNamePrefix() {
        return "sluice-omb";
    }

    /** Creates the topic on every master of the configured cluster; the broker registers it before answering. */
    @Override
    public CompletableFuture<Void> createTopic(String topic, int partitions) {
        try {
            admin.createTopic(TopicSpec.of(topic, partitions).withQueueType(settings.queueType()),
                    settings.clusterName());
            return CompletableFuture.completedFuture(null);
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    @Override
    public CompletableFuture<BenchmarkProducer> createProducer(String topic) {
        try {
            String name = instanceName("producer");
            Producer producer = Producer.start(settings.producerSettings(connection.withInstanceName(name), name));
            return CompletableFuture.completedFuture(
                    remember(new SluiceBenchmarkProducer(producer, topic, settings.maxInFlightMessages())));
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    @Override
    public CompletableFuture<BenchmarkConsumer> createConsumer(String topic, String subscriptionName,
                                                               ConsumerCallback consumerCallback) {
        LitePullConsumer consumer;
        try {
            consumer = LitePullConsumer.start(settings.consumerSettings(
                    connection.withInstanceName(instanceName("consumer")), subscriptionName));
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
        try {
            return CompletableFuture.completedFuture(
                    remember(SluiceBenchmarkConsumer.start(consumer, topic, consumerCallback)));
        } catch (RuntimeException e) {
            consumer.close();
            return CompletableFuture.failedFuture(e);
        }
    }

    /** Closes every producer and consumer (closing twice is harmless), then the admin client. */
    @Override
    public void close() throws Exception {
        List<AutoCloseable> toClose;
        synchronized (opened) {
            toClose = new ArrayList<>(opened);
            opened.clear();
        }
        Exception first = null;
        for (AutoCloseable closeable : toClose) {
            try {
                closeable.close();
            } catch (Exception e) {
                // Keep closing the others; the first failure is thrown, later ones ride along as suppressed.
                if (first == null) {
                    first = e;
                } else {
                    first.addSuppressed(e);
                }
            }
        }
        if (admin != null) {
            admin.close();
        }
        if (first != null) {
            throw first;
        }
    }

    private <T extends AutoCloseable> T remember(T closeable) {
        synchronized (opened) {
            opened.add(closeable);
        }
        return closeable;
    }

    /** Distinct per client of this process, as the client requires; the pid keeps workers on one host apart. */
    private String instanceName(String role) {
        return "omb-" + role + "-" + ProcessHandle.current().pid() + "-" + clients.incrementAndGet();
    }
}
