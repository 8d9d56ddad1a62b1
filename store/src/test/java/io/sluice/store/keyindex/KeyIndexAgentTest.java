package io.sluice.store.keyindex;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.format.MessageProperties;
import io.sluice.store.log.AppendResult;
import io.sluice.store.log.AppendStatus;
import io.sluice.testing.Await;
import io.sluice.store.log.CommitLog;
import io.sluice.store.log.LogEnvironment;
import io.sluice.store.log.LogSettings;
import io.sluice.store.log.MessageDraft;
import io.sluice.store.thread.AgentHost;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.SleepingIdleStrategy;
import org.agrona.concurrent.SystemEpochClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code sluice-key-index} on its {@link AgentHost}: it idles in a park far longer than the test's deadline, so
 * only dispatch's wake-up can make it index, and it indexes only what dispatch has passed.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class KeyIndexAgentTest {

    private static final InetSocketAddress HOST = new InetSocketAddress(InetAddress.getLoopbackAddress(), 10911);
    private static final String TOPIC = "orders";
    /** Longer than any deadline here: a test passes only if the thread is woken. */
    private static final long PARK_NS = TimeUnit.HOURS.toNanos(1);

    @TempDir
    Path dir;

    private CommitLog log;
    private KeyIndexFiles files;
    private KeyIndexAgent agent;
    private AgentHost thread;
    private final AtomicLong dispatched = new AtomicLong();
    private final KeyIndexCounters counters = new KeyIndexCounters();

    @BeforeEach
    void open() throws IOException {
        log = CommitLog.open(LogSettings.builder(dir.resolve("commitlog"), HOST).segmentBytes(128 * 1024)
                .maxMessageBytes(16 * 1024).build(),
                LogEnvironment.system());
        log.recover(0, true, e -> { });
        files = KeyIndexFiles.open(KeyIndexSettings.defaults(dir).withSizes(64, 1_000), log.minPosition(),
                log.writtenPosition());
        startAgent(0);
    }

    /** Starts the agent on its thread, with a batch park of {@code batchParkNs} (0: none) before its long park. */
    private void startAgent(long batchParkNs) {
        agent = new KeyIndexAgent(files, log, dispatched::get, SystemEpochClock.INSTANCE, 50, counters,
                new SleepingIdleStrategy(PARK_NS), batchParkNs);
        thread = new AgentHost(agent, agent.idleStrategy());
        thread.start();
        awaitParked();
    }

    @AfterEach
    void close() {
        if (thread != null) {
            assertTrue(thread.close(10_000), "the index thread stops though parked for an hour");
        }
        if (files != null) {
            files.close(true);
        }
        if (log != null) {
            log.close();
        }
    }

    @Test
    void shouldIndexWhatDispatchPassedOnceDispatchTellsOfIt() {
        long end = append(0, 5);
        dispatched.set(end);
        wakeAsTheStoreDoes();
        Await.until("records indexed", () -> agent.indexedPosition() == end);
        assertEquals(10, counters.snapshot(0, 0, 0).keys(), "a key and a unique key per record");
        assertEquals(1, lookup("order-3", false).size());
        assertEquals(1, lookup("U4", true).size());
    }

    @Test
    void shouldNotIndexBeyondTheDispatchedPosition() {
        long first = append(0, 3);
        long end = append(3, 6);
        dispatched.set(first);
        wakeAsTheStoreDoes();
        Await.until("the dispatched records indexed", () -> agent.indexedPosition() == first);
        awaitParked();
        assertEquals(first, agent.indexedPosition(), "records after the dispatched position wait");
        assertTrue(lookup("order-4", false).isEmpty());
        dispatched.set(end);
        wakeAsTheStoreDoes();
        Await.until("the rest indexed", () -> agent.indexedPosition() == end);
        assertEquals(1, lookup("order-4", false).size());
    }

    @Test
    void shouldNeedNoWakeUpWhileItIsBusy() {
        dispatched.set(append(0, 1));
        assertTrue(agent.onDispatched(), "a parked thread must be unparked");
        thread.wakeUp();
        Await.until("indexed", () -> agent.indexedPosition() == dispatched.get());
        awaitParked();
        assertEquals(0, counters.snapshot(0, 0, 0).failures());
        assertFalse(lookup("U0", true).isEmpty());
    }

    @Test
    void theBrokersLongParkIsTheWholePeriodAtOnce() throws InterruptedException {
        IdleStrategy backoff = KeyIndexAgent.caughtUpBackoff();
        AtomicLong tookNs = new AtomicLong(-1);
        // A fresh thread holds no unpark permit, so only the period (or a rare spurious return) ends its park.
        Thread idler = new Thread(() -> {
            long start = System.nanoTime();
            backoff.idle();
            tookNs.set(System.nanoTime() - start);
        }, "key-index-backoff-test");
        idler.start();
        idler.join(10_000);
        assertTrue(tookNs.get() >= TimeUnit.MILLISECONDS.toNanos(KeyIndexAgent.MAX_PARK_MS) / 2,
                "the first idle call lasted " + tookNs.get() + " ns: spins, yields or a ramp of short timed parks"
                        + " would wake the thread for nothing between arrivals");
    }

    @Test
    void arrivalsDuringABatchParkWakeNobodyAndAreIndexedWhenItEnds() {
        assertTrue(thread.close(10_000));
        startAgent(TimeUnit.SECONDS.toNanos(1));
        long first = append(0, 1);
        dispatched.set(first);
        wakeAsTheStoreDoes();
        Await.until("the first record indexed", () -> agent.indexedPosition() == first);
        // Now in (or about to enter) the batch park that follows indexing.
        long end = append(1, 4);
        dispatched.set(end);
        assertFalse(agent.onDispatched(), "an arrival during the batch park asks for no wake-up");
        Await.until("the rest indexed once the batch park ends", () -> agent.indexedPosition() == end);
        assertEquals(1, lookup("order-3", false).size());
        // A batch park that finds nothing leads to the long park, which the next arrival ends.
        Await.until("the long park", () -> {
            Thread t = thread.thread();
            return t != null && t.getState() == Thread.State.TIMED_WAITING && LockSupport.getBlocker(t) == null;
        });
        long last = append(4, 5);
        dispatched.set(last);
        wakeAsTheStoreDoes();
        Await.until("the last record indexed", () -> agent.indexedPosition() == last);
    }

    @Test
    void shouldRefuseANegativeBatchPark() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new KeyIndexAgent(files, log,
                dispatched::get, SystemEpochClock.INSTANCE, 50, counters, new SleepingIdleStrategy(PARK_NS), -1));
        assertTrue(e.getMessage().contains("-1"), e.getMessage());
    }

    /** What the store's arrival listener does through {@link KeyIndex#onDispatched()}. */
    private void wakeAsTheStoreDoes() {
        if (agent.onDispatched()) {
            thread.wakeUp();
        }
    }

    private void awaitParked() {
        Await.until("the index thread parks", () -> {
            Thread t = thread.thread();
            return t != null && t.getState() == Thread.State.TIMED_WAITING;
        });
    }

    /** Appends records {@code from} to {@code to} (exclusive), each with a key and a unique key; the log's end. */
    private long append(int from, int to) {
        long end = 0;
        for (int i = from; i < to; i++) {
            String properties = MessageProperties.encode(Map.of(MessageProperties.KEYS, "order-" + i,
                    MessageProperties.UNIQ_KEY, "U" + i));
            MessageDraft draft = MessageDraft.builder(TOPIC, 0).body(("m" + i).getBytes(StandardCharsets.UTF_8))
                    .propertiesText(properties).bornHost(HOST).bornTimestampMs(1_700_000_000_000L).build();
            AppendResult r = Await.result(log.append(draft));
            assertEquals(AppendStatus.PUT_OK, r.status());
            end = r.nextPosition();
        }
        return end;
    }

    private List<Long> lookup(String key, boolean unique) {
        KeyMatches matches = new KeyMatches(position -> true, 16);
        files.lookup(KeyHash.of(TOPIC, unique ? KeyHash.KIND_UNIQUE : KeyHash.KIND_KEY, key), 0, Long.MAX_VALUE,
                matches);
        return List.copyOf(matches.positions());
    }
}
