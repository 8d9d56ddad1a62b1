package io.sluice.broker.schedule;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.testing.Await;
import io.sluice.broker.testing.OpenStores;
import io.sluice.store.log.AppendKind;
import io.sluice.store.log.AppendResult;
import io.sluice.store.log.MessageDraft;
import io.sluice.format.MessageProperties;
import io.sluice.format.RecordDescriptor;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.agrona.concurrent.EpochClock;
import org.agrona.concurrent.SystemEpochClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DelaySchedulerTest {

    private static final String SCHEDULE = DelayScheduler.SCHEDULE_TOPIC;

    @TempDir
    Path dir;

    private OpenStores stores;
    private final AtomicLong nowMs = new AtomicLong();
    private final EpochClock clock = nowMs::get;
    private final ScheduleSettings settings = ScheduleSettings.of(List.of(1_000L, 5_000L, 10_000L));

    @BeforeEach
    void open() throws IOException {
        stores = OpenStores.open(dir);
        stores.createTopic("T", 4);
    }

    @AfterEach
    void close() {
        stores.close();
    }

    private DelayScheduler scheduler() {
        DelayScheduler scheduler = new DelayScheduler(stores.store(), stores.metadata(), settings, clock);
        scheduler.installScheduleTopic();
        return scheduler;
    }

    private static MessageDraft delayed(String body, int level) {
        return OpenStores.draft("T", 2, body, "TAGS\u0001a\u0002DELAY\u0001" + level + "\u0002");
    }

    @Test
    void shouldRedirectDelayedSingleMessagesToTheLevelQueue() {
        DelayScheduler scheduler = new DelayScheduler(stores.store(), stores.metadata(), settings, clock);
        assertTrue(stores.metadata().getTopic(SCHEDULE).isEmpty(), "created on demand only");
        MessageDraft redirected = scheduler.redirectIfDelayed(delayed("x", 2));
        assertEquals(SCHEDULE, redirected.topic());
        assertEquals(1, redirected.queueId());
        Map<String, String> props = MessageProperties.parse(redirected.propertiesText());
        assertEquals("T", props.get(MessageProperties.REAL_TOPIC));
        assertEquals("2", props.get(MessageProperties.REAL_QID));
        assertEquals("2", props.get(MessageProperties.DELAY));
        assertEquals("a", props.get(MessageProperties.TAGS));
        assertEquals(3, stores.metadata().getTopic(SCHEDULE).orElseThrow().writeQueueNums(),
                "the first redirect creates the schedule topic, one queue per level");

        MessageDraft clamped = scheduler.redirectIfDelayed(delayed("x", 99));
        assertEquals(2, clamped.queueId(), "levels above the last clamp to it");
        assertEquals("3", MessageProperties.find(clamped.propertiesText(), MessageProperties.DELAY));
    }

    @Test
    void shouldLeaveOtherDraftsAlone() {
        DelayScheduler scheduler = scheduler();
        MessageDraft plain = OpenStores.draft("T", 0, "x", "TAGS\u0001a\u0002");
        assertSame(plain, scheduler.redirectIfDelayed(plain));
        MessageDraft zero = delayed("x", 0);
        assertSame(zero, scheduler.redirectIfDelayed(zero));
        MessageDraft garbage = OpenStores.draft("T", 0, "x", "DELAY\u0001soon\u0002");
        assertSame(garbage, scheduler.redirectIfDelayed(garbage));
        MessageDraft batch = delayed("x", 2).withKind(AppendKind.UNPACKED_BATCH);
        assertSame(batch, scheduler.redirectIfDelayed(batch));
        MessageDraft prepared = MessageDraft.builder("T", 0).body(new byte[1]).bornHost(OpenStores.BORN_HOST)
                .sysFlag(RecordDescriptor.TRANSACTION_PREPARED_TYPE).propertiesText("DELAY\u00012\u0002").build();
        assertSame(prepared, scheduler.redirectIfDelayed(prepared));
    }

    @Test
    void shouldDeliverADueMessageToItsRealQueueWithoutDelay() {
        DelayScheduler scheduler = scheduler();
        AppendResult parked = stores.append(scheduler.redirectIfDelayed(delayed("hello", 2)));
        nowMs.set(parked.storeTimestampMs() + 4_999);
        assertEquals(0, scheduler.doWork(), "not due before storeTimestamp + 5 s");
        assertEquals(0, stores.records("T", 2).size());

        nowMs.set(parked.storeTimestampMs() + 5_000);
        assertEquals(1, scheduler.doWork());
        stores.awaitDispatched();
        List<ByteBuffer> delivered = stores.records("T", 2);
        assertEquals(1, delivered.size());
        StoredMessage m = StoredMessage.decode(delivered.get(0));
        assertEquals("hello", OpenStores.bodyText(m.body()));
        assertNull(m.property(MessageProperties.DELAY));
        assertEquals("T", m.property(MessageProperties.REAL_TOPIC));
        assertEquals("2", m.property(MessageProperties.REAL_QID));
        assertEquals("a", m.property(MessageProperties.TAGS));
        assertEquals(OpenStores.BORN_HOST, m.bornHost());
        assertEquals(1_700_000_000_000L, m.bornTimestampMs());
        assertEquals(1, scheduler.offset(2));
        assertEquals(1L, stores.metadata().getLong(DelayScheduler.offsetKey(2)).orElseThrow());
        assertEquals(1, scheduler.deliveredCount());

        assertEquals(0, scheduler.doWork(), "delivered once");
    }

    @Test
    void shouldStopALevelAtTheFirstMessageNotDue() {
        DelayScheduler scheduler = scheduler();
        AppendResult first = stores.append(scheduler.redirectIfDelayed(delayed("first", 1)));
        Await.until("the store clock moves on", () -> System.currentTimeMillis() > first.storeTimestampMs());
        AppendResult second = stores.append(scheduler.redirectIfDelayed(delayed("second", 1)));
        assertTrue(second.storeTimestampMs() > first.storeTimestampMs());

        nowMs.set(first.storeTimestampMs() + 1_000);
        assertEquals(1, scheduler.doWork());
        assertEquals(1, scheduler.offset(1));
        nowMs.set(second.storeTimestampMs() + 1_000);
        assertEquals(1, scheduler.doWork());
        stores.awaitDispatched();
        assertEquals(List.of("first", "second"), stores.records("T", 2).stream()
                .map(r -> OpenStores.bodyText(StoredMessage.decode(r).body())).toList());
    }

    @Test
    void shouldResumeFromThePersistedOffsetAfterARestart() {
        DelayScheduler first = scheduler();
        AppendResult parked = stores.append(first.redirectIfDelayed(delayed("once", 1)));
        nowMs.set(parked.storeTimestampMs() + 1_000);
        assertEquals(1, first.doWork());

        DelayScheduler second = scheduler();
        assertEquals(1, second.offset(1));
        assertEquals(0, second.doWork(), "a restarted scheduler does not deliver again");
        stores.awaitDispatched();
        assertEquals(1, stores.records("T", 2).size());
    }

    @Test
    void shouldSkipRecordsThatNameNoRealTopic() {
        DelayScheduler scheduler = scheduler();
        stores.append(OpenStores.draft(SCHEDULE, 0, "orphan", "DELAY\u00011\u0002"));
        AppendResult good = stores.append(scheduler.redirectIfDelayed(delayed("good", 1)));
        nowMs.set(good.storeTimestampMs() + 1_000);
        assertEquals(1, scheduler.doWork());
        assertEquals(1, scheduler.droppedCount());
        assertEquals(2, scheduler.offset(1));
    }

    @Test
    void shouldDeliverOnItsOwnThreadWhenStarted() {
        DelayScheduler scheduler = new DelayScheduler(stores.store(), stores.metadata(),
                new ScheduleSettings(List.of(50L), 32, 20), SystemEpochClock.INSTANCE);
        scheduler.start();
        try {
            assertThrows(IllegalStateException.class, scheduler::start);
            stores.append(scheduler.redirectIfDelayed(delayed("soon", 1)));
            Await.until("the delayed message is delivered", () -> scheduler.deliveredCount() == 1);
            stores.awaitDispatched();
            assertEquals(1, stores.records("T", 2).size());
        } finally {
            scheduler.close();
        }
        assertEquals(1L, stores.metadata().getLong(DelayScheduler.offsetKey(1)).orElseThrow());
    }

    @Test
    void shouldValidateSettings() {
        assertThrows(IllegalArgumentException.class, () -> ScheduleSettings.of(List.of()));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ScheduleSettings.of(List.of(1_000L, 0L)));
        assertTrue(e.getMessage().contains("level 2"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new ScheduleSettings(List.of(1L), 0, 1));
        assertEquals(18, ScheduleSettings.defaults().maxLevel());
        assertEquals(10_000, ScheduleSettings.defaults().delayMs(3));
        assertEquals(7_200_000, ScheduleSettings.defaults().delayMs(40));
    }
}
