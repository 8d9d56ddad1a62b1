package io.sluice.cli;

import io.sluice.client.Message;
import io.sluice.client.Producer;
import io.sluice.client.ProducerSettings;
import io.sluice.client.SendCallback;
import io.sluice.client.SendResult;
import io.sluice.client.SendStatus;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code sluice produce -t TOPIC}: sends {@code --count} messages of {@code --size} bytes with the Sluice client
 * (asynchronous sends, auto-batching on by default), at {@code --rate} messages per second or as fast as the
 * in-flight window allows, printing a live rate line. Latency is measured from each message's intended send time,
 * so a stalled broker shows up in the percentiles (no coordinated omission). Exits 1 if any send failed.
 *
 * <p>Text mode, with {@code --body} (repeatable) or {@code --stdin} (one message a line): sends those bodies one by
 * one, each acknowledged before the next, and prints a line per message (message id, queue, offset).
 * Not thread-safe; one run per instance.
 */
@Command(name = "produce", mixinStandardHelpOptions = true,
        description = "Send messages with the Sluice client and print a live rate line.")
final class ProduceCommand implements Callable<Integer> {

    @Mixin
    ClientOptions client;

    @Option(names = {"-t", "--topic"}, required = true, description = "topic to send to")
    String topic;

    @Option(names = {"-m", "--count"}, defaultValue = "100000",
            description = "messages to send (default: ${DEFAULT-VALUE})")
    long count;

    @Option(names = {"-s", "--size"}, defaultValue = "1024", description = "body bytes (default: ${DEFAULT-VALUE})")
    int sizeBytes;

    @Option(names = {"-r", "--rate"}, defaultValue = "0",
            description = "messages per second; 0 = as fast as the in-flight window allows (default: ${DEFAULT-VALUE})")
    long ratePerSecond;

    @Option(names = "--in-flight", defaultValue = "8192",
            description = "most sends awaiting their result (default: ${DEFAULT-VALUE})")
    int inFlight;

    @Option(names = "--auto-batch", negatable = true, defaultValue = "true", fallbackValue = "true",
            description = "group single sends into batches (default: ${DEFAULT-VALUE})")
    boolean autoBatch;

    @Option(names = "--tag", description = "tag of every message")
    String tag;

    @Option(names = {"-g", "--group"}, defaultValue = "sluice-produce",
            description = "producer group (default: ${DEFAULT-VALUE})")
    String group;

    @Option(names = {"-k", "--keys"}, description = "keys of every message (space-separated, for queries by key)")
    String keys;

    @Option(names = "--property", paramLabel = "NAME=VALUE",
            description = "a user property of every message (repeatable)")
    Map<String, String> properties = new LinkedHashMap<>();

    @Option(names = {"-b", "--body"}, paramLabel = "TEXT",
            description = "text mode: send this body (repeatable; --count, --size and --rate do not apply)")
    List<String> bodies = new ArrayList<>();

    @Option(names = "--stdin", description = "text mode: send each line of standard input as one message")
    boolean stdin;

    @Override
    public Integer call() throws InterruptedException {
        if (count < 1 || sizeBytes < 1 || ratePerSecond < 0 || inFlight < 1) {
            throw new IllegalArgumentException("--count, --size and --in-flight must be positive and --rate not "
                    + "negative: count=" + count + " size=" + sizeBytes + " in-flight=" + inFlight + " rate="
                    + ratePerSecond);
        }
        ProducerSettings settings = ProducerSettings.builder(client.connection()).producerGroup(group)
                .autoBatch(autoBatch).build();
        if (stdin || !bodies.isEmpty()) {
            return sendText(settings);
        }
        byte[] body = new byte[sizeBytes];
        Arrays.fill(body, (byte) 'x');
        Message message = message(body);
        LatencyMeter latency = new LatencyMeter();
        AtomicReference<Throwable> firstError = new AtomicReference<>();
        Semaphore window = new Semaphore(inFlight);
        long intervalNanos = ratePerSecond == 0 ? 0 : 1_000_000_000L / ratePerSecond;
        try (Producer producer = Producer.start(settings)) {
            try (ProgressLine progress = new ProgressLine("sent", System.out, latency::intervalText)) {
                long startNanos = System.nanoTime();
                for (long i = 0; i < count; i++) {
                    long intendedNanos = intervalNanos == 0 ? System.nanoTime() : startNanos + i * intervalNanos;
                    parkUntil(intendedNanos);
                    window.acquire();
                    producer.sendAsync(message, new SendCallback() {
                        @Override
                        public void onSuccess(SendResult result) {
                            latency.recordNanos(System.nanoTime() - intendedNanos);
                            progress.add(sizeBytes);
                            window.release();
                        }

                        @Override
                        public void onException(Throwable error) {
                            firstError.compareAndSet(null, error);
                            progress.fail();
                            window.release();
                        }
                    });
                }
                long drainTimeoutMs = settings.sendTimeoutMs() * 2 + 10_000;
                if (!window.tryAcquire(inFlight, drainTimeoutMs, TimeUnit.MILLISECONDS)) {
                    throw new IllegalStateException((inFlight - window.availablePermits())
                            + " sends got no result within " + drainTimeoutMs + " ms");
                }
            }
        }
        System.out.println(latency.totalText());
        Throwable error = firstError.get();
        if (error != null) {
            throw new IllegalStateException("some sends failed; the first: " + ErrorReporter.describe(error), error);
        }
        return 0;
    }

    private Message message(byte[] body) {
        Message.Builder builder = Message.builder(topic, body);
        if (tag != null) {
            builder.tags(tag);
        }
        if (keys != null) {
            builder.keys(keys);
        }
        properties.forEach(builder::property);
        return builder.build();
    }

    /** Text mode: each body acknowledged before the next; one line per message on stdout. */
    private int sendText(ProducerSettings settings) {
        long sent = 0;
        try (Producer producer = Producer.start(settings)) {
            for (String body : bodies) {
                printSent(producer.send(message(body.getBytes(StandardCharsets.UTF_8))));
                sent++;
            }
            if (stdin) {
                BufferedReader lines = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
                for (String line = readLine(lines); line != null; line = readLine(lines)) {
                    printSent(producer.send(message(line.getBytes(StandardCharsets.UTF_8))));
                    sent++;
                }
            }
        }
        System.out.println("total: " + sent + " sent");
        return 0;
    }

    private static String readLine(BufferedReader lines) {
        try {
            return lines.readLine();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read standard input", e);
        }
    }

    private static void printSent(SendResult result) {
        if (result.status() != SendStatus.SEND_OK) {
            throw new IllegalStateException("message " + result.msgId() + " was stored but not as asked: "
                    + result.status());
        }
        System.out.println(result.msgId() + "\t" + result.queue().brokerName() + "/" + result.queue().queueId()
                + "\t" + result.queueOffset());
    }

    private static void parkUntil(long deadlineNanos) {
        for (long left = deadlineNanos - System.nanoTime(); left > 0; left = deadlineNanos - System.nanoTime()) {
            LockSupport.parkNanos(left);
        }
    }
}
