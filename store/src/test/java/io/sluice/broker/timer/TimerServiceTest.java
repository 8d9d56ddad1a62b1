package io.sluice.broker.timer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.broker.schedule.StoredMessage;
import io.sluice.broker.testing.OpenStores;
import io.sluice.store.log.MessageDraft;
import io.sluice.format.MessageProperties;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The timer service driven pass by pass on a manual clock: redirect, index, delivery when due and not before, the
 * delivered copy's properties, refusals, and recovery of the index (resumed when behind, rebuilt when deleted,
 * without re-delivering what the checkpoint says was delivered).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class TimerServiceTest {

    private static final String TOPIC = "Orders";
    private static final long T0 = 1_800_000_000_000L;
    private static final TimerSettings SETTINGS = new TimerSettings(true, 100, 3_600_000);

    @TempDir
    Path dir;

    private final AtomicLong nowMs = new AtomicLong(T0);

    @Test
    void aTimerIsDeliveredWhenDueAndNotBefore() throws Exception {
        try (OpenStores stores = OpenStores.open(dir);
             TimerService timers = service(stores)) {
            stores.createTopic(TOPIC, 2);
            MessageDraft sent = OpenStores.draft(TOPIC, 1, "later", props(MessageProperties.TIMER_DELAY_SEC, "5",
                    MessageProperties.KEYS, "k1", MessageProperties.TAGS, "TagA", MessageProperties.UNIQ_KEY, "U1"));
            MessageDraft timed = timers.redirectIfTimed(sent);
            assertEquals(TimerService.TIMER_TOPIC, timed.topic());
            assertEquals(Long.toString(T0 + 5_000),
                    MessageProperties.find(timed.propertiesText(), TimerService.TIMER_OUT_MS));
            assertEquals(TOPIC, MessageProperties.find(timed.propertiesText(), MessageProperties.REAL_TOPIC));
            assertEquals("1", MessageProperties.find(timed.propertiesText(), MessageProperties.REAL_QID));
            stores.append(timed);

            assertEquals(0, timers.doWork());
            assertEquals(1, timers.pendingCount());
            assertEquals(0, stores.store().maxOffset(TOPIC, 1), "invisible in the real topic before it is due");
            nowMs.set(T0 + 4_999);
            assertEquals(0, timers.doWork());
            nowMs.set(T0 + 5_000);
            assertEquals(1, timers.doWork());
            assertEquals(0, timers.pendingCount());
            stores.awaitDispatched();

            List<ByteBuffer> delivered = stores.records(TOPIC, 1);
            assertEquals(1, delivered.size());
            StoredMessage m = StoredMessage.decode(delivered.get(0));
            assertEquals("later", OpenStores.bodyText(m.body()));
            assertEquals("k1", m.property(MessageProperties.KEYS));
            assertEquals("TagA", m.property(MessageProperties.TAGS));
            assertEquals("U1", m.property(MessageProperties.UNIQ_KEY));
            assertEquals(Long.toString(T0 + 5_000), m.property(TimerService.TIMER_OUT_MS));
            assertNull(m.property(MessageProperties.REAL_TOPIC));
            assertNull(m.property(MessageProperties.TIMER_DELAY_SEC), "a re-send must not be delayed again");
            assertEquals(0, timers.doWork(), "delivered once");
            Map<String, String> figures = timers.runtimeFigures(nowMs.get());
            assertEquals("0", figures.get("timerPendingCount"));
            assertEquals("0", figures.get("timerOffsetBehind"));
        }
    }

    @Test
    void sendsDueNowOrWithoutTimerAreNotRedirected() throws Exception {
        try (OpenStores stores = OpenStores.open(dir);
             TimerService timers = service(stores)) {
            MessageDraft past = OpenStores.draft(TOPIC, 0, "past",
                    props(MessageProperties.TIMER_DELIVER_MS, Long.toString(T0 - 10_000)));
            assertSame(past, timers.redirectIfTimed(past));
            MessageDraft now = OpenStores.draft(TOPIC, 0, "now", props(MessageProperties.TIMER_DELAY_MS, "0"));
            assertSame(now, timers.redirectIfTimed(now));
            MessageDraft plain = OpenStores.draft(TOPIC, 0, "plain", props(MessageProperties.KEYS, "k"));
            assertSame(plain, timers.redirectIfTimed(plain));
        }
    }

    @Test
    void badTimersAreRefusedNamingTheProperty() throws Exception {
        try (OpenStores stores = OpenStores.open(dir);
             TimerService timers = service(stores)) {
            String bad = timers.refusal(TOPIC, 0, props(MessageProperties.TIMER_DELAY_MS, "soon")).orElseThrow();
            assertTrue(bad.contains("TIMER_DELAY_MS") && bad.contains("soon"), bad);
            String far = timers.refusal(TOPIC, 0, props(MessageProperties.TIMER_DELAY_SEC, "3601")).orElseThrow();
            assertTrue(far.contains("timerMaxDelaySec"), far);
            assertEquals(Optional.empty(), timers.refusal(TOPIC, 0, props(MessageProperties.TIMER_DELAY_SEC,
                    "3600")));
            assertEquals(Optional.empty(), timers.refusal(TOPIC, 0, props(MessageProperties.TIMER_DELIVER_MS,
                    Long.toString(Long.MIN_VALUE))), "a time long past delivers at once");
            String tx = timers.refusal(TOPIC, 0, props(MessageProperties.TIMER_DELAY_SEC, "1",
                    MessageProperties.TRAN_MSG, "true")).orElseThrow();
            assertTrue(tx.contains("transactional"), tx);
            assertThrows(IllegalStateException.class, () -> timers.redirectIfTimed(OpenStores.draft(TOPIC, 0, "x",
                    props(MessageProperties.TIMER_DELAY_SEC, "x"))));
        }
        try (OpenStores stores = OpenStores.open(dir.resolve("off"));
             TimerService off = new TimerService(stores.store(), stores.metadata(), new TimerSettings(false, 100,
                     3_600_000), nowMs::get, dir.resolve("off-index"))) {
            String disabled = off.refusal(TOPIC, 0, props(MessageProperties.TIMER_DELIVER_MS,
                    Long.toString(T0 + 1_000))).orElseThrow();
            assertTrue(disabled.contains("timerWheelEnable=false") && disabled.contains("TIMER_DELIVER_MS"),
                    disabled);
        }
    }

    @Test
    void anIndexBehindResumesAndADeletedIndexIsRebuiltWithoutRedelivering() throws Exception {
        Path index = dir.resolve("timer-index");
        try (OpenStores stores = OpenStores.open(dir)) {
            stores.createTopic(TOPIC, 1);
            try (TimerService timers = service(stores, index)) {
                sendTimer(stores, timers, "a", 1_000);
                sendTimer(stores, timers, "b", 2_000);
                assertEquals(0, timers.doWork());
                assertEquals(2, timers.pendingCount());
                nowMs.set(T0 + 1_000);
                assertEquals(1, timers.doWork(), "a is due");
                // c arrives while the service runs no pass: the index is behind when it reopens.
                sendTimer(stores, timers, "c", 3_000);
            }
            try (TimerService timers = service(stores, index)) {
                assertEquals(1, timers.pendingCount(), "b survives the reopen");
                assertEquals(0, timers.doWork());
                assertEquals(2, timers.pendingCount(), "c is indexed from the timer topic");
                nowMs.set(T0 + 2_000);
                assertEquals(1, timers.doWork(), "b is due");
            }
            deleteRecursively(index);
            try (TimerService timers = service(stores, index)) {
                assertEquals(0, timers.doWork());
                assertEquals(1, timers.pendingCount(), "only c is rebuilt: the checkpoint says a and b were delivered");
                nowMs.set(T0 + 3_000);
                assertEquals(1, timers.doWork(), "c is due");
            }
            List<String> bodies = bodies(stores);
            assertEquals(List.of("a", "b", "c"), bodies, "each delivered once, in time order");
        }
    }

    @Test
    void manyDueTimersAreDeliveredInOnePassInDueOrder() throws Exception {
        int count = 300;
        try (OpenStores stores = OpenStores.open(dir);
             TimerService timers = service(stores)) {
            stores.createTopic(TOPIC, 1);
            for (int i = 0; i < count; i++) {
                long delayMs = 1_000 + (i * 7_919L) % count; // every delay once, sent out of order
                sendTimer(stores, timers, "t" + delayMs, delayMs);
            }
            assertEquals(0, timers.doWork());
            assertEquals(count, timers.pendingCount());
            nowMs.set(T0 + 1_000 + count);
            assertEquals(count, timers.doWork(), "one pass delivers them all");
            assertEquals(0, timers.pendingCount());
            assertEquals(0, timers.doWork(), "delivered once");
            List<String> dueOrder = LongStream.range(1_000, 1_000 + count).mapToObj(d -> "t" + d).toList();
            assertEquals(dueOrder, bodies(stores), "stored in the order they fall due");
        }
    }

    @Test
    void aTimerDueBeforeEveryPendingOneIsFoundAfterEarlierPasses() throws Exception {
        try (OpenStores stores = OpenStores.open(dir);
             TimerService timers = service(stores)) {
            stores.createTopic(TOPIC, 1);
            for (String body : List.of("first", "last")) {
                sendTimer(stores, timers, body, body.equals("first") ? 5_000 : 6_000);
            }
            assertEquals(0, timers.doWork());
            nowMs.set(T0 + 5_000);
            assertEquals(1, timers.doWork(), "first is due; later scans start at last");
            sendTimer(stores, timers, "between", 5_500);
            assertEquals(0, timers.doWork());
            assertEquals(2, timers.pendingCount());
            nowMs.set(T0 + 5_500);
            assertEquals(1, timers.doWork(), "between sorts before the scan start and is still found");
            nowMs.set(T0 + 6_000);
            assertEquals(1, timers.doWork());
            assertEquals(List.of("first", "between", "last"), bodies(stores));
        }
    }

    @Test
    void runtimeFiguresReportTheTimersState() throws Exception {
        try (OpenStores stores = OpenStores.open(dir);
             TimerService timers = service(stores)) {
            stores.createTopic(TOPIC, 1);
            for (long delayMs : new long[] {500, 600, 5_000}) {
                sendTimer(stores, timers, "d" + delayMs, delayMs);
            }
            Map<String, String> sent = timers.runtimeFigures(T0);
            assertEquals("3", sent.get("timerOffsetBehind"), sent.toString());
            assertEquals("0", sent.get("timerPendingCount"), sent.toString());
            assertEquals(0, timers.doWork());
            Map<String, String> indexed = timers.runtimeFigures(T0 + 800);
            assertEquals("0", indexed.get("timerOffsetBehind"), indexed.toString());
            assertEquals("3", indexed.get("timerPendingCount"), indexed.toString());
            assertEquals("300", indexed.get("timerReadBehind"), "the earliest is 300 ms overdue: " + indexed);
            nowMs.set(T0 + 1_000);
            assertEquals(2, timers.doWork());
            Map<String, String> delivered = timers.runtimeFigures(T0 + 1_000);
            assertEquals("1", delivered.get("timerPendingCount"), delivered.toString());
            assertEquals("0", delivered.get("timerReadBehind"), delivered.toString());
            assertEquals("0", delivered.get("timerCongestNum"), delivered.toString());
            assertEquals("3.00", delivered.get("timerEnqueueTps"), "3 indexed in the first second: " + delivered);
            assertEquals("2.00", delivered.get("timerDequeueTps"), "2 delivered in the first second: " + delivered);
        }
    }

    @Test
    void countersStayZeroWhenEveryTimerIsDelivered() throws Exception {
        try (OpenStores stores = OpenStores.open(dir);
             TimerService timers = service(stores)) {
            stores.createTopic(TOPIC, 1);
            sendTimer(stores, timers, "kept", 1_000);
            assertEquals(0, timers.doWork());
            assertFalse(timers.runtimeFigures(nowMs.get()).isEmpty());
            nowMs.set(T0 + 1_000);
            assertEquals(1, timers.doWork());
            assertEquals(0, timers.missingCount());
            assertEquals(0, timers.skippedCount());
        }
    }

    /** The bodies stored in {@value #TOPIC} queue 0, in queue order, once dispatch caught up. */
    private static List<String> bodies(OpenStores stores) {
        stores.awaitDispatched();
        return stores.records(TOPIC, 0).stream().map(r -> OpenStores.bodyText(StoredMessage.decode(r).body()))
                .toList();
    }

    private void sendTimer(OpenStores stores, TimerService timers, String body, long delayMs) {
        stores.append(timers.redirectIfTimed(OpenStores.draft(TOPIC, 0, body,
                props(MessageProperties.TIMER_DELIVER_MS, Long.toString(T0 + delayMs)))));
    }

    private TimerService service(OpenStores stores) {
        return service(stores, dir.resolve("timer-index"));
    }

    private TimerService service(OpenStores stores, Path index) {
        return new TimerService(stores.store(), stores.metadata(), SETTINGS, nowMs::get, index);
    }

    private static String props(String... namesAndValues) {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < namesAndValues.length; i += 2) {
            text.append(namesAndValues[i]).append(MessageProperties.NAME_VALUE_SEPARATOR).append(namesAndValues[i + 1])
                    .append(MessageProperties.PROPERTY_SEPARATOR);
        }
        return text.toString();
    }

    private static void deleteRecursively(Path path) throws IOException {
        try (Stream<Path> walk = Files.walk(path)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
