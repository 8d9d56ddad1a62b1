package io.sluice.store;

import static io.sluice.store.StoreFixture.SIMPLE_TOPIC;
import static io.sluice.store.StoreFixture.appendOk;
import static io.sluice.store.StoreFixture.awaitMaxOffset;
import static io.sluice.store.StoreFixture.draft;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.store.log.AppendResult;
import io.sluice.store.log.AppendStatus;
import io.sluice.testing.Await;
import io.sluice.store.log.LogEnvironment;
import io.sluice.store.retention.DiskUsage;
import io.sluice.store.retention.SimulatedDisk;
import io.sluice.store.retention.RetentionSettings;
import java.io.IOException;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The refuse ratio holds between disk checks: on a simulated 64 MiB file system whose use grows with the log, appends
 * stop with DISK_FULL before the use passes 90 %, although the disk is measured only every 64 appends; nothing
 * accepted is lost, and appends resume once space frees.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class MessageStoreDiskBudgetTest {

    private static final long TOTAL_BYTES = 64L << 20;
    private static final double REFUSE_RATIO = 0.90;

    @TempDir
    Path root;

    /** Bytes used besides the log; the test frees space by lowering it. */
    private final AtomicLong otherBytes = new AtomicLong(32L << 20);
    private final AtomicReference<MessageStore> storeRef = new AtomicReference<>();
    private MessageStore store;

    @AfterEach
    void close() {
        if (store != null) {
            store.close();
        }
    }

    private long usedBytes() {
        MessageStore s = storeRef.get();
        return otherBytes.get() + (s == null ? 0 : s.stats().writtenPosition());
    }

    private void open() throws IOException {
        DiskUsage simulated = new SimulatedDisk(TOTAL_BYTES, this::usedBytes);
        StoreEnvironment env = StoreEnvironment.system().withLog(LogEnvironment.system()).withDiskUsage(simulated)
                .withZone(ZoneOffset.UTC);
        store = MessageStore.open(StoreFixture.settings(root).retention(RetentionSettings.defaults()
                .withRatios(0.75, 0.85, REFUSE_RATIO).withCleanFileForcibly(false).withCheckIntervalMs(3_600_000))
                .build(), StoreFixture.TYPES, env);
        storeRef.set(store);
    }

    @Test
    void shouldStopAppendsBelowTheRefuseRatioBetweenChecksAndResumeWhenSpaceFrees() throws IOException {
        open();
        store.runRetention();
        int stored = 0;
        AppendResult refused = null;
        for (int i = 0; i < 100_000 && refused == null; i++) {
            if (i % 64 == 0) {
                store.runRetention();
            }
            AppendResult r = Await.result(store.append(draft(SIMPLE_TOPIC, 0, "x".repeat(1_000) + i)));
            assertTrue((double) usedBytes() / TOTAL_BYTES <= REFUSE_RATIO, "the disk passed the refuse ratio");
            if (r.status() == AppendStatus.PUT_OK) {
                stored++;
            } else if (r.status() == AppendStatus.DISK_FULL) {
                store.runRetention();
                AppendResult again = Await.result(store.append(draft(SIMPLE_TOPIC, 0, "again")));
                if (again.status() == AppendStatus.PUT_OK) {
                    stored++;
                } else {
                    refused = again;
                }
            } else {
                throw new AssertionError("unexpected " + r);
            }
        }
        assertEquals(AppendStatus.DISK_FULL, refused == null ? null : refused.status(), "appends never stopped");
        long written = store.stats().writtenPosition();
        assertTrue((double) usedBytes() / TOTAL_BYTES > 0.85, "stopped too early, after " + written + " bytes");

        otherBytes.set(8L << 20);
        store.runRetention();
        appendOk(store, draft(SIMPLE_TOPIC, 0, "after"));
        awaitMaxOffset(store, SIMPLE_TOPIC, 0, stored + 1);
        GetResult all = store.getMessages(SIMPLE_TOPIC, 0, 0, stored + 1, Integer.MAX_VALUE, null);
        assertEquals(stored + 1, all.messageCount(), "every accepted message is readable");
    }
}
