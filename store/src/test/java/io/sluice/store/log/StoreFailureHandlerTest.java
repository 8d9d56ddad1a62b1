package io.sluice.store.log;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The store's failure flags: the first I/O failure makes the log unwritable for good and reaches every listener
 * once, later ones are only counted; the disk-full flag is separate and can be cleared.
 */
@Timeout(30)
class StoreFailureHandlerTest {

    private final StoreFailureHandler handler = new StoreFailureHandler();

    @Test
    void aFreshHandlerIsWritable() {
        assertTrue(handler.isWritable());
        assertFalse(handler.hasFailed());
        assertFalse(handler.isDiskFull());
        assertTrue(handler.firstFailure().isEmpty());
        assertEquals(0, handler.failureCount());
    }

    @Test
    void theFirstFailureIsKeptAndToldToEveryListenerOnce() {
        List<String> told = new ArrayList<>();
        handler.addListener(e -> told.add("a:" + e.getMessage()));
        handler.addListener(e -> told.add("b:" + e.getMessage()));
        IOException first = new IOException("fsync failed");
        handler.onIoFailure("fsync", first);
        handler.onIoFailure("create segment 00000000001073741824", new IOException("no space"));
        handler.onIoFailure("fsync", new IOException("again"));

        assertEquals(List.of("a:fsync failed", "b:fsync failed"), told);
        assertSame(first, handler.firstFailure().orElseThrow());
        assertEquals(3, handler.failureCount());
        assertTrue(handler.hasFailed());
        assertFalse(handler.isWritable(), "never writable again");
    }

    @Test
    void aListenerAddedAfterTheFailureIsNotToldOfIt() {
        handler.onIoFailure("fsync", new IOException("gone"));
        List<IOException> told = new ArrayList<>();
        handler.addListener(told::add);
        handler.onIoFailure("fsync", new IOException("second"));
        assertEquals(List.of(), told);
    }

    @Test
    void theDiskFullFlagIsSeparateAndClears() {
        handler.markDiskFull(true);
        assertTrue(handler.isDiskFull());
        assertFalse(handler.isWritable());
        assertFalse(handler.hasFailed(), "a full disk is no I/O failure");
        handler.markDiskFull(true);
        handler.markDiskFull(false);
        assertTrue(handler.isWritable());

        handler.onIoFailure("fsync", new IOException("bad sector"));
        handler.markDiskFull(false);
        assertFalse(handler.isWritable(), "clearing the disk flag does not undo a failure");
    }

    @Test
    void aFailureNeedsACauseAndAListenerMustExist() {
        assertThrows(NullPointerException.class, () -> handler.onIoFailure("fsync", null));
        assertThrows(NullPointerException.class, () -> handler.addListener(null));
        assertTrue(handler.isWritable());
    }

    @Test
    void racingFailuresElectExactlyOneFirst() throws Exception {
        int threads = 4;
        List<IOException> told = Collections.synchronizedList(new ArrayList<>());
        handler.addListener(told::add);
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            CountDownLatch start = new CountDownLatch(1);
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int id = t;
                done.add(pool.submit(() -> {
                    start.await();
                    for (int i = 0; i < 250; i++) {
                        handler.onIoFailure("write", new IOException(id + "/" + i));
                    }
                    return null;
                }));
            }
            start.countDown();
            for (Future<?> f : done) {
                f.get(10, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
        assertEquals(1, told.size());
        assertSame(told.get(0), handler.firstFailure().orElseThrow());
        assertEquals(threads * 250, handler.failureCount());
    }
}
