package io.sluice.cli;

import io.sluice.client.Message;
import io.sluice.client.Producer;
import io.sluice.client.ProducerSettings;
import io.sluice.client.SendCallback;
import io.sluice.client.SendResult;
import java.util.Arrays;
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

    @Override
    public Integer call() throws InterruptedException {
        if (count < 1 || sizeBytes < 1 || ratePerSecond < 0 || inFlight < 1) {
            throw new IllegalArgumentException("--count, --size and --in-flight must be positive and --rate not "
                    + "negative: count=" + count + " size=" + sizeBytes + " in-flight=" + inFlight + " rate="
                    + ratePerSecond);
        }
        byte[] body = new byte[sizeBytes];
        Arrays.fill(body, (byte) 'x');
        Message.Builder builder = Message.builder(topic, body);
        if (tag != null) {
            builder.tags(tag);
        }
        Message message = builder.build();
        ProducerSettings settings = ProducerSettings.builder(client.connection()).producerGroup(group)
                .autoBatch(autoBatch).build();
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

    private static void parkUntil(long deadlineNanos) {
        for (long left = deadlineNanos - System.nanoTime(); left > 0; left = deadlineNanos - System.nanoTime()) {
            LockSupport.parkNanos(left);
        }
    }
}
