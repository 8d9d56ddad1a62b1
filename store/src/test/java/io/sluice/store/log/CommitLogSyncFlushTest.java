package io.sluice.store.log;

import io.sluice.testing.Await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.agrona.concurrent.CachedNanoClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CommitLogSyncFlushTest {

    @TempDir
    Path dir;

    /** A fsync hook the test opens and closes; counts calls. */
    static final class GateHook implements ForceHook {
        final AtomicInteger calls = new AtomicInteger();
        final CountDownLatch release = new CountDownLatch(1);
        volatile boolean blocking = true;
        volatile IOException failWith;

        @Override
        public void beforeForce(long fromPosition, long toPosition) throws IOException {
            calls.incrementAndGet();
            if (failWith != null) {
                throw failWith;
            }
            while (blocking) {
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }

        void open() {
            blocking = false;
            release.countDown();
        }
    }

    private CommitLog openSync(LogEnvironment env) throws IOException {
        LogSettings settings = LogFixture.settings(dir).flushMode(FlushMode.SYNC).syncFlushTimeoutMs(5_000).build();
        return LogFixture.openRecovered(settings, env);
    }

    @Test
    void shouldCompleteEveryAppendAfterItsFsync() throws Exception {
        try (CommitLog log = openSync(LogEnvironment.system())) {
            List<CompletableFuture<AppendResult>> futures = new ArrayList<>();
            List<Thread> threads = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                int queue = t;
                Thread thread = new Thread(() -> {
                    for (int i = 0; i < 100; i++) {
                        CompletableFuture<AppendResult> f = log.append(LogFixture.draft("Sync", queue, "m" + i));
                        synchronized (futures) {
                            futures.add(f);
                        }
                    }
                });
                threads.add(thread);
                thread.start();
            }
            for (Thread thread : threads) {
                thread.join();
            }
            for (CompletableFuture<AppendResult> f : futures) {
                AppendResult r = Await.result(f);
                assertEquals(AppendStatus.PUT_OK, r.status());
                assertTrue(log.flushedPosition() >= r.nextPosition());
            }
            assertEquals(100, log.queueOffsets().nextOffset("Sync", 3));
        }
    }

    @Test
    void shouldCoverEveryWaitingAppendWithOneFsync() throws Exception {
        GateHook hook = new GateHook();
        try (CommitLog log = openSync(LogEnvironment.system().withForceHook(hook))) {
            CompletableFuture<AppendResult> first = log.append(LogFixture.draft("G", 0, "first"));
            Await.until("the first fsync to start", () -> hook.calls.get() == 1);
            List<CompletableFuture<AppendResult>> waiting = new ArrayList<>();
            for (int i = 0; i < 50; i++) {
                waiting.add(log.append(LogFixture.draft("G", 0, "w" + i)));
            }
            assertFalse(first.isDone());
            assertTrue(waiting.stream().noneMatch(CompletableFuture::isDone));
            assertTrue(log.confirmedPosition() < log.writtenPosition(), "SYNC dispatch sees only flushed bytes");
            assertEquals(ScanStatus.NO_MORE_DATA, log.cursor(0).next().status());
            hook.open();
            assertEquals(AppendStatus.PUT_OK, Await.result(first).status());
            for (CompletableFuture<AppendResult> f : waiting) {
                assertEquals(AppendStatus.PUT_OK, Await.result(f).status());
            }
            assertEquals(2, hook.calls.get(), "one fsync for the first append, one for the 50 that waited");
            assertEquals(log.writtenPosition(), log.confirmedPosition());
            assertEquals(ScanStatus.VALID, log.cursor(0).next().status());
        }
    }

    @Test
    void shouldAnswerFlushDiskTimeoutWhenTheFsyncHangs() throws Exception {
        GateHook hook = new GateHook();
        CachedNanoClock clock = new CachedNanoClock();
        clock.update(1_000_000_000L);
        CommitLog log = openSync(LogEnvironment.system().withForceHook(hook).withNanoClock(clock));
        try {
            CompletableFuture<AppendResult> stuck = log.append(LogFixture.draft("H", 0, "stuck"));
            Await.until("the fsync to hang", () -> hook.calls.get() == 1);
            clock.advance(4_999_000_000L);
            CompletableFuture<AppendResult> later = log.append(LogFixture.draft("H", 0, "later"));
            assertFalse(stuck.isDone(), "not before its deadline");
            clock.advance(2_000_000L);
            AppendResult r = Await.result(stuck);
            assertEquals(AppendStatus.FLUSH_DISK_TIMEOUT, r.status());
            assertTrue(r.status().isStored());
            assertEquals(ReadStatus.FOUND, log.readRecord(r.position(), r.wroteBytes()).status(), "it is stored");
            assertFalse(later.isDone(), "a later append keeps its own deadline");
            hook.open();
            assertEquals(AppendStatus.PUT_OK, Await.result(later).status());
        } finally {
            hook.open();
            log.close();
        }
    }

    @Test
    void shouldReportAFailedFsyncAndStopAcceptingAppends() throws Exception {
        GateHook hook = new GateHook();
        hook.failWith = new IOException("injected EIO");
        LogEnvironment env = LogEnvironment.system().withForceHook(hook);
        try (CommitLog log = openSync(env)) {
            AppendResult r = Await.result(log.append(LogFixture.draft("F", 0, "doomed")));
            assertEquals(AppendStatus.IO_ERROR, r.status());
            assertTrue(env.failureHandler().hasFailed());
            assertEquals("injected EIO", env.failureHandler().firstFailure().orElseThrow().getMessage());
            assertFalse(log.isWritable());
            assertEquals(AppendStatus.SERVICE_NOT_AVAILABLE,
                    Await.result(log.append(LogFixture.draft("F", 0, "next"))).status());
        }
    }

    @Test
    void shouldNotWaitForTheFsyncWhenTheProducerDoesNotWait() throws Exception {
        GateHook hook = new GateHook();
        try (CommitLog log = openSync(LogEnvironment.system().withForceHook(hook))) {
            CompletableFuture<AppendResult> f = log.append(LogFixture.draft("W", 0,
                    "x".getBytes(StandardCharsets.UTF_8), "WAIT\u0001false\u0002"));
            assertTrue(f.isDone());
            assertEquals(AppendStatus.PUT_OK, f.join().status());
            Await.until("the flusher to pick the bytes up anyway", () -> hook.calls.get() == 1);
            hook.open();
            Await.until("the bytes to become durable", () -> log.flushedPosition() == log.writtenPosition());
        }
    }
}
