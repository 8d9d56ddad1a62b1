package io.sluice.benchmark.load;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import org.HdrHistogram.Histogram;

/**
 * Runs one workload against one driver: creates the topics, starts consumers and producers, warms up, measures,
 * and returns the result. For a backlog workload the consumers start only once the backlog is built, and the
 * measured phase is the drain.
 *
 * <p>During the measured phase a broker that reports its dispatch lag is sampled every
 * {@value #DISPATCH_LAG_INTERVAL_MS} ms by a {@link DispatchLagSampler}.
 *
 * <p>Sends follow OMB's producer loop: each producer thread computes the intended time of its next send from the
 * target rate, waits for it, and calls the client's asynchronous send with the run's one shared body. Nothing in
 * the harness bounds the sends in flight: the client's own back-pressure does (Kafka's {@code buffer.memory}, the
 * Sluice producer's {@code totalBatchMaxBytes}, the Apache producer's async back-pressure), as under OMB, so a
 * target rate above what the system sustains (OMB's {@code producerRate: 10000000}) measures the rate that
 * back-pressure allows, and the time a send waited shows as publish delay.
 *
 * <p>Threads: one per producer (paced sends), the client libraries' own threads (outcomes, deliveries), the
 * dispatch lag sampler's thread during the measured phase, and the calling thread, which samples once a second and
 * owns everything else. Not reusable.
 */
final class LoadRun {

    /** How long the end of a run waits for the outcome of the sends still in flight. */
    static final long IN_FLIGHT_DRAIN_TIMEOUT_MS = 30_000;
    /** Time between two dispatch lag samples. */
    static final long DISPATCH_LAG_INTERVAL_MS = 50;

    private final Workload workload;
    private final Driver driver;
    private final String system;
    private final Consumer<String> log;
    private final Optional<DispatchLagSampler.Source> dispatchLagSource;
    private final RunStats stats = new RunStats();
    private final RateController rate;
    private final AtomicReference<Throwable> firstSendError = new AtomicReference<>();
    /** Sends whose outcome has not arrived yet. */
    private final LongAdder inFlight = new LongAdder();
    private volatile boolean producing = true;
    private boolean consumersRunning;

    /**
     * @param dispatchLagSource where the broker's dispatch lag is read; empty for a system that does not report it
     */
    LoadRun(Workload workload, Driver driver, String system, Optional<DispatchLagSampler.Source> dispatchLagSource,
            Consumer<String> log) {
        this.workload = workload;
        this.driver = driver;
        this.system = system;
        this.dispatchLagSource = dispatchLagSource;
        this.log = log;
        this.rate = new RateController(workload.producerRate());
    }

    RunResult run() throws Exception {
        String runId = UUID.randomUUID().toString().substring(0, 8);
        List<String> topics = new ArrayList<>();
        for (int t = 0; t < workload.topics(); t++) {
            String topic = "bench-" + runId + "-" + t;
            driver.createTopic(topic, workload.partitionsPerTopic());
            topics.add(topic);
        }
        log.accept(system + ": created " + topics.size() + " topic(s) of " + workload.partitionsPerTopic()
                + " partitions");
        List<Driver.BenchConsumer> consumers = new ArrayList<>();
        List<Driver.BenchProducer> producers = new ArrayList<>();
        List<Thread> producerThreads = new ArrayList<>();
        try {
            boolean backlogRun = workload.backlogBytes() > 0;
            if (!backlogRun) {
                startConsumers(topics, runId, consumers);
            }
            int producerCount = topics.size() * workload.producersPerTopic();
            byte[] body = Payload.filler(workload.messageSizeBytes());
            for (String topic : topics) {
                for (int p = 0; p < workload.producersPerTopic(); p++) {
                    Driver.BenchProducer producer = driver.createProducer(topic);
                    producers.add(producer);
                    Thread thread = new Thread(() -> produce(producer, producerCount, body),
                            "bench-producer-" + producerThreads.size());
                    thread.setDaemon(true);
                    producerThreads.add(thread);
                }
            }
            producerThreads.forEach(Thread::start);
            Sampler sampler = new Sampler();
            if (backlogRun) {
                log.accept(system + ": building a backlog of " + workload.backlogBytes() + " bytes");
                sampler.runUntil(() -> stats.sentBytes.sum() >= workload.backlogBytes(), false, Double.MAX_VALUE);
                startConsumers(topics, runId, consumers);
                log.accept(system + ": backlog built (" + stats.sent.sum() + " messages); consumers started");
            } else {
                log.accept(system + ": warm-up " + workload.warmupSeconds() + " s");
                sampler.runFor(workload.warmupSeconds(), false);
            }
            log.accept(system + ": measuring " + workload.testSeconds() + " s");
            sampler.runFor(workload.testSeconds(), true);
            producing = false;
            for (Thread thread : producerThreads) {
                thread.join(TimeUnit.SECONDS.toMillis(30));
            }
            long drainDeadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(IN_FLIGHT_DRAIN_TIMEOUT_MS);
            while (inFlight.sum() > 0 && System.nanoTime() - drainDeadline < 0) {
                LockSupport.parkNanos(10_000_000L);
            }
            if (inFlight.sum() > 0) {
                log.accept(system + ": " + inFlight.sum() + " sends still without outcome after "
                        + IN_FLIGHT_DRAIN_TIMEOUT_MS + " ms");
            }
            return sampler.result();
        } finally {
            producing = false;
            closeAll(producers);
            closeAll(consumers);
        }
    }

    private void startConsumers(List<String> topics, String runId, List<Driver.BenchConsumer> consumers)
            throws Exception {
        consumersRunning = workload.subscriptionsPerTopic() > 0;
        for (String topic : topics) {
            for (int s = 0; s < workload.subscriptionsPerTopic(); s++) {
                String group = "sub-" + runId + "-" + s;
                // Average allocation gives every member at least this many queues.
                int minQueues = workload.partitionsPerTopic() / workload.consumerPerSubscription();
                for (int c = 0; c < workload.consumerPerSubscription(); c++) {
                    consumers.add(driver.createConsumer(topic, group, minQueues, (bodyBytes, bornMs) ->
                            stats.recordReceived(bodyBytes, bornMs, System.currentTimeMillis())));
                }
            }
        }
    }

    /**
     * One producer's paced send loop (OMB's): the schedule restarts whenever the target rate changes; a send whose
     * intended time has passed leaves at once, and the client's send blocks while its back-pressure holds it.
     */
    private void produce(Driver.BenchProducer producer, int producerCount, byte[] body) {
        int size = body.length;
        long generation = -1;
        long startNanos = 0;
        double intervalNanos = 0;
        long count = 0;
        while (producing) {
            if (generation != rate.generation()) {
                generation = rate.generation();
                startNanos = System.nanoTime();
                intervalNanos = 1e9 * producerCount / rate.ratePerSecond();
                count = 0;
            }
            long intendedNanos = startNanos + (long) (count * intervalNanos);
            count++;
            for (long wait = intendedNanos - System.nanoTime(); wait > 0 && producing;
                    wait = intendedNanos - System.nanoTime()) {
                LockSupport.parkNanos(Math.min(wait, 100_000_000L));
            }
            long sendNanos = System.nanoTime();
            inFlight.increment();
            try {
                producer.send(body, error -> {
                    if (error == null) {
                        stats.recordSent(size, intendedNanos, sendNanos, System.nanoTime());
                    } else {
                        stats.sendErrors.increment();
                        firstSendError.compareAndSet(null, error);
                    }
                    inFlight.decrement();
                });
            } catch (RuntimeException e) {
                stats.sendErrors.increment();
                firstSendError.compareAndSet(null, e);
                inFlight.decrement();
            }
        }
    }

    private void closeAll(List<? extends AutoCloseable> closeables) {
        for (AutoCloseable closeable : closeables) {
            try {
                closeable.close();
            } catch (Exception e) {
                log.accept(system + ": closing " + closeable + " failed: " + e);
            }
        }
    }

    /**
     * Samples once a second on the run's thread (the rate search and the log line), and keeps OMB's
     * {@value RunResult#OMB_PERIOD_SECONDS} s periods and the whole-test histograms of the measured phase.
     */
    private final class Sampler {
        private final int periodSeconds = (int) Math.max(1, Math.min(RunResult.OMB_PERIOD_SECONDS,
                Math.floor(workload.testSeconds())));
        private final Histogram publishTotal = new Histogram(RunStats.MAX_MICROS, 3);
        private final Histogram publishDelayTotal = new Histogram(RunStats.MAX_MICROS, 3);
        private final Histogram endToEndTotal = new Histogram(RunStats.MAX_MICROS, 3);
        private final Histogram publishPeriod = new Histogram(RunStats.MAX_MICROS, 3);
        private final Histogram publishDelayPeriod = new Histogram(RunStats.MAX_MICROS, 3);
        private final Histogram endToEndPeriod = new Histogram(RunStats.MAX_MICROS, 3);
        private final List<RunResult.Period> periods = new ArrayList<>();
        private long lastSent;
        private long lastReceived;
        private long lastBacklog;
        private long periodStartSent;
        private long periodStartErrors;
        private long periodStartReceived;
        private long periodStartNanos;
        private int secondsInPeriod;
        private long testStartSent;
        private long testStartReceived;
        private long testStartNanos;
        /** When the last one-second sample was taken: the end of the measured window. */
        private long lastSampleNanos;
        private double drainSeconds = -1;
        private Optional<DispatchLag> dispatchLag = Optional.empty();

        void runFor(double seconds, boolean measuring) throws InterruptedException {
            long end = System.nanoTime() + (long) (seconds * 1e9);
            runUntil(() -> System.nanoTime() - end >= 0, measuring, seconds);
        }

        void runUntil(BooleanSupplier done, boolean measuring, double maxSeconds)
                throws InterruptedException {
            if (measuring) {
                testStartSent = stats.sent.sum();
                testStartReceived = stats.received.sum();
                testStartNanos = System.nanoTime();
                stats.publishInterval();
                stats.publishDelayInterval();
                stats.endToEndInterval();
                startPeriod();
            }
            Optional<DispatchLagSampler> lagSampler = measuring
                    ? dispatchLagSource.map(source -> new DispatchLagSampler(system, source, DISPATCH_LAG_INTERVAL_MS,
                            log))
                    : Optional.empty();
            lagSampler.ifPresent(DispatchLagSampler::start);
            try {
                sampleSeconds(done, measuring);
            } finally {
                if (lagSampler.isPresent()) {
                    DispatchLag lag = lagSampler.get().stop();
                    dispatchLag = Optional.of(lag);
                    log.accept(system + ": dispatch lag " + lag.summary());
                }
            }
            if (measuring && secondsInPeriod > 0) {
                endPeriod();
            }
        }

        private void sampleSeconds(BooleanSupplier done, boolean measuring) throws InterruptedException {
            long next = System.nanoTime();
            while (!done.getAsBoolean()) {
                next += 1_000_000_000L;
                for (long wait = next - System.nanoTime(); wait > 0 && !done.getAsBoolean();
                        wait = next - System.nanoTime()) {
                    LockSupport.parkNanos(Math.min(wait, 50_000_000L));
                }
                if (Thread.interrupted()) {
                    throw new InterruptedException();
                }
                second(measuring);
            }
        }

        private void second(boolean measuring) {
            long sent = stats.sent.sum();
            long received = stats.received.sum();
            long backlog = backlog(sent, received);
            double sentPerSecond = sent - lastSent;
            // Until the consumers deliver their first message (subscription, rebalance, first pull) a growing
            // backlog says nothing about the rate they sustain.
            rate.observe(sentPerSecond, backlog - lastBacklog, consumersRunning && received > 0);
            Histogram publish = stats.publishInterval();
            Histogram publishDelay = stats.publishDelayInterval();
            Histogram endToEnd = stats.endToEndInterval();
            log.accept(String.format(Locale.ROOT, "%s: %s pub %,.0f msg/s (target %,.0f)  cons %,.0f msg/s  "
                            + "backlog %,d  pub p99 %.1f ms  pub delay p99 %.1f ms  e2e p99 %.1f ms  errors %d",
                    system, measuring ? "test" : "warm", sentPerSecond, rate.ratePerSecond(),
                    (double) (received - lastReceived), backlog, publish.getValueAtPercentile(99) / 1e3,
                    publishDelay.getValueAtPercentile(99) / 1e3, endToEnd.getValueAtPercentile(99) / 1e3,
                    stats.sendErrors.sum()));
            lastSent = sent;
            lastReceived = received;
            lastBacklog = backlog;
            lastSampleNanos = System.nanoTime();
            if (measuring) {
                publishTotal.add(publish);
                publishDelayTotal.add(publishDelay);
                endToEndTotal.add(endToEnd);
                publishPeriod.add(publish);
                publishDelayPeriod.add(publishDelay);
                endToEndPeriod.add(endToEnd);
                if (drainSeconds < 0 && workload.backlogBytes() > 0 && backlog <= Math.max(1000, sentPerSecond)) {
                    drainSeconds = (System.nanoTime() - testStartNanos) / 1e9;
                    log.accept(system + ": backlog drained in " + String.format(Locale.ROOT, "%.1f", drainSeconds)
                            + " s");
                }
                if (++secondsInPeriod == periodSeconds) {
                    endPeriod();
                    startPeriod();
                }
            }
        }

        private long backlog(long sent, long received) {
            return Math.max(0, sent * workload.subscriptionsPerTopic() - received);
        }

        private void startPeriod() {
            periodStartSent = stats.sent.sum();
            periodStartErrors = stats.sendErrors.sum();
            periodStartReceived = stats.received.sum();
            periodStartNanos = System.nanoTime();
            secondsInPeriod = 0;
            publishPeriod.reset();
            publishDelayPeriod.reset();
            endToEndPeriod.reset();
        }

        private void endPeriod() {
            double seconds = (System.nanoTime() - periodStartNanos) / 1e9;
            long sent = stats.sent.sum();
            long received = stats.received.sum();
            periods.add(new RunResult.Period((sent - periodStartSent) / seconds,
                    (stats.sendErrors.sum() - periodStartErrors) / seconds, (received - periodStartReceived) / seconds,
                    backlog(sent, received), RunResult.Latency.of(publishPeriod),
                    RunResult.Latency.of(publishDelayPeriod, 1), RunResult.Latency.of(endToEndPeriod)));
            secondsInPeriod = 0;
        }

        RunResult result() {
            // The window ends at the last sample, not now: stopping the producers and awaiting their last outcomes
            // is not measured time.
            double seconds = Math.max(1e-9, (lastSampleNanos - testStartNanos) / 1e9);
            Throwable error = firstSendError.get();
            return new RunResult(system, workload, driver.settings(), periodSeconds, periods,
                    (lastSent - testStartSent) / seconds, (lastReceived - testStartReceived) / seconds,
                    RunResult.Latencies.of(publishTotal, publishDelayTotal, endToEndTotal),
                    backlog(lastSent, lastReceived), drainSeconds, stats.sendErrors.sum(),
                    error == null ? null : String.valueOf(error), dispatchLag);
        }
    }
}
