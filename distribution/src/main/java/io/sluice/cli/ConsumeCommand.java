package io.sluice.cli;

import io.sluice.client.Admin;
import io.sluice.client.ConsumeFrom;
import io.sluice.client.ConsumeStatus;
import io.sluice.client.PushConsumer;
import io.sluice.client.PushSettings;
import io.sluice.client.ReceivedMessage;
import java.io.PrintStream;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code sluice consume -t TOPIC -g GROUP}: consumes with the Sluice client's push consumer and prints a live rate
 * line, with end-to-end latency from each message's born timestamp (the producer's clock) to its delivery. Runs
 * until {@code --count} messages arrived, {@code --max-seconds} passed, or the process is interrupted (the totals
 * are printed either way). It first asks the name server for the topic's route, so an unreachable name server or a
 * missing topic fails at once instead of waiting for messages that cannot come. Not thread-safe; one run per instance.
 */
@Command(name = "consume", mixinStandardHelpOptions = true,
        description = "Consume messages with the Sluice client and print a live rate line.")
final class ConsumeCommand implements Callable<Integer> {

    @Mixin
    ClientOptions client;

    @Option(names = {"-t", "--topic"}, required = true, description = "topic to consume")
    String topic;

    @Option(names = {"-g", "--group"}, defaultValue = "sluice-consume",
            description = "consumer group (default: ${DEFAULT-VALUE})")
    String group;

    @Option(names = "--from", defaultValue = "FIRST_OFFSET",
            description = "where a new group starts: FIRST_OFFSET or LAST_OFFSET (default: ${DEFAULT-VALUE})")
    ConsumeFrom from;

    @Option(names = {"-m", "--count"}, defaultValue = "0",
            description = "stop after this many messages; 0 = no limit (default: ${DEFAULT-VALUE})")
    long count;

    @Option(names = "--max-seconds", defaultValue = "0",
            description = "stop after this many seconds; 0 = no limit (default: ${DEFAULT-VALUE})")
    long maxSeconds;

    @Option(names = "--tags", defaultValue = "*",
            description = "tag expression, e.g. 'A || B' (default: ${DEFAULT-VALUE})")
    String tags;

    @Option(names = "--print", defaultValue = "NONE",
            description = "print each message on stdout: NONE, TEXT (tab-separated queue, offset, msgId, keys, tags,"
                    + " born and store time, body) or JSON (one object a line); the rate line then goes to stderr"
                    + " (default: ${DEFAULT-VALUE})")
    MessagePrinter.Format print;

    @Override
    public Integer call() throws InterruptedException {
        if (count < 0 || maxSeconds < 0) {
            throw new IllegalArgumentException("--count and --max-seconds must not be negative: count=" + count
                    + " max-seconds=" + maxSeconds);
        }
        try (Admin admin = Admin.start(client.connection())) {
            TopicChecks.requireRoute(admin, topic);
        }
        LatencyMeter latency = new LatencyMeter();
        CountDownLatch done = new CountDownLatch(1);
        MessagePrinter printer = new MessagePrinter(print, System.out);
        PrintStream progressOut = print == MessagePrinter.Format.NONE ? System.out : System.err;
        ProgressLine progress = new ProgressLine("received", progressOut, latency::intervalText);
        PushConsumer consumer = PushConsumer.create(PushSettings.builder(client.connection(), group)
                .consumeFrom(from).consumeBatchMaxSize(32).build());
        Thread printTotals = new Thread(() -> {
            consumer.close();
            progress.close();
            progressOut.println(latency.totalText());
        }, "sluice-consume-totals");
        Runtime.getRuntime().addShutdownHook(printTotals);
        consumer.subscribe(topic, tags);
        consumer.registerListener(messages -> {
            long nowMs = System.currentTimeMillis();
            for (ReceivedMessage message : messages) {
                latency.recordNanos(TimeUnit.MILLISECONDS.toNanos(nowMs - message.bornTimestampMs()));
                printer.print(message);
                progress.add(message.body().length);
            }
            if (count > 0 && progress.messages() >= count) {
                done.countDown();
            }
            return ConsumeStatus.SUCCESS;
        });
        consumer.start();
        if (maxSeconds > 0) {
            done.await(maxSeconds, TimeUnit.SECONDS);
        } else {
            done.await();
        }
        Runtime.getRuntime().removeShutdownHook(printTotals);
        printTotals.run();
        return 0;
    }
}
