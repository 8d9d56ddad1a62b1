package io.sluice.broker.retention;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.sluice.broker.schedule.DelayScheduler;
import io.sluice.broker.schedule.ScheduleSettings;
import io.sluice.broker.testing.OpenStores;
import io.sluice.broker.timer.TimerService;
import io.sluice.broker.timer.TimerSettings;
import io.sluice.broker.transaction.TransactionService;
import io.sluice.broker.transaction.TransactionSettings;
import io.sluice.store.log.AppendResult;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * What retention may not delete, as the broker answers it: data is unread from the lowest position any group
 * (or, for a queue no group committed on, anybody) has not consumed, ignoring the broker's own topics and dead
 * letters; and the broker itself needs the delayed messages no level has delivered yet.
 */
@Timeout(30)
class BrokerRetentionGuardTest {

    @TempDir
    Path dir;

    private OpenStores stores;
    private DelayScheduler delays;
    private BrokerRetentionGuard guard;
    private final AtomicLong nowMs = new AtomicLong(System.currentTimeMillis());

    @BeforeEach
    void open() throws IOException {
        stores = OpenStores.open(dir);
        delays = new DelayScheduler(stores.store(), stores.metadata(), ScheduleSettings.of(List.of(1_000L, 5_000L)),
                nowMs::get);
        TimerService timers = new TimerService(stores.store(), stores.metadata(), new TimerSettings(true, 100,
                3_600_000), nowMs::get, dir.resolve("timer"));
        TransactionService transactions = new TransactionService(stores.store(), stores.metadata(),
                group -> Optional.empty(), topic -> true,
                new TransactionSettings(1_000, 1_000, 15, "broker-a"), nowMs::get, OpenStores.STORE_HOST);
        guard = new BrokerRetentionGuard(stores.store(), stores.metadata(), timers, transactions, delays);
    }

    @AfterEach
    void close() {
        stores.close();
    }

    @Test
    void nothingStoredIsNothingUnreadOrNeeded() {
        assertEquals(Long.MAX_VALUE, guard.unconsumedFromPosition());
        assertEquals(Long.MAX_VALUE, guard.neededFromPosition());
        assertEquals("messages of queues no consumer group had committed an offset on",
                guard.describeUnreadBelow(0));
    }

    @Test
    void unreadDataStartsAtTheLowestOffsetAnyGroupHasNotConsumed() {
        stores.createTopic("T", 2);
        List<AppendResult> q0 = append("T", 0, 5);
        List<AppendResult> q1 = append("T", 1, 3);
        assertEquals(Math.min(q0.get(0).position(), q1.get(0).position()), guard.unconsumedFromPosition(),
                "no group committed: everything is unread");

        stores.metadata().commitOffset("g", "T", 0, 5);
        stores.metadata().commitOffset("g", "T", 1, 1);
        assertEquals(q1.get(1).position(), guard.unconsumedFromPosition(), "g has read T-0 and one of T-1");

        stores.metadata().commitOffset("h", "T", 0, 2);
        assertEquals(Math.min(q0.get(2).position(), q1.get(1).position()), guard.unconsumedFromPosition(),
                "the slowest group on each queue counts");

        stores.metadata().commitOffset("g", "T", 1, 3);
        stores.metadata().commitOffset("h", "T", 0, 5);
        assertEquals(Long.MAX_VALUE, guard.unconsumedFromPosition(), "everything consumed");
        assertEquals("messages of queues no consumer group had committed an offset on",
                guard.describeUnreadBelow(0), "no group lost anything");
    }

    @Test
    void deadLettersAndTheBrokersOwnTopicsAreNotWaitedFor() {
        stores.createTopic("%DLQ%g", 1);
        stores.createTopic("SCHEDULE_TOPIC_XXXX", 1);
        append("%DLQ%g", 0, 2);
        append("SCHEDULE_TOPIC_XXXX", 0, 2);
        assertEquals(Long.MAX_VALUE, guard.unconsumedFromPosition());
    }

    @Test
    void delayedMessagesNoLevelHasDeliveredAreNeeded() {
        stores.createTopic("T", 1);
        delays.installScheduleTopic();
        AppendResult delayed = stores.append(delays.redirectIfDelayed(OpenStores.draft("T", 0, "later",
                "DELAY\u00012\u0002")));
        assertEquals(delayed.position(), guard.neededFromPosition(), "level 2 has not delivered it");
        assertEquals(0, delays.offset(2));
    }

    private List<AppendResult> append(String topic, int queueId, int count) {
        List<AppendResult> results = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            results.add(stores.append(OpenStores.draft(topic, queueId, topic + "-" + i, "")));
        }
        return results;
    }
}
