package io.sluice.client.internal;

import io.sluice.testing.Await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.client.BatchMemoryFullException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class BatchMemoryTest {

    @Test
    void shouldReserveUpToTheLimitAndNoMore() {
        BatchMemory memory = new BatchMemory(100);
        assertTrue(memory.tryReserve(60));
        assertFalse(memory.tryReserve(41));
        assertTrue(memory.tryReserve(40));
        memory.release(100);
        assertEquals(0, memory.heldBytes());
    }

    @Test
    void shouldFailFastNamingTheAmounts() {
        BatchMemory memory = new BatchMemory(100);
        memory.reserveOrFail(90);
        BatchMemoryFullException full = assertThrows(BatchMemoryFullException.class, () -> memory.reserveOrFail(20));
        assertTrue(full.getMessage().contains("90 of totalBatchMaxBytes 100 held, 20 more needed"), full.getMessage());
    }

    @Test
    void shouldWakeAWaitingSenderWhenMemoryComesBack() throws Exception {
        BatchMemory memory = new BatchMemory(100);
        memory.reserveOrFail(100);
        CompletableFuture<Void> waiter = CompletableFuture.runAsync(() -> {
            try {
                memory.reserve(50, TimeUnit.SECONDS.toNanos(20));
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        Await.until("waiter blocked", () -> memory.heldBytes() == 100 && !waiter.isDone());
        memory.release(60);
        waiter.get(20, TimeUnit.SECONDS);
        assertEquals(90, memory.heldBytes());
    }

    @Test
    void shouldGiveUpAfterTheTimeout() {
        BatchMemory memory = new BatchMemory(10);
        memory.reserveOrFail(10);
        assertThrows(BatchMemoryFullException.class, () -> memory.reserve(1, TimeUnit.MILLISECONDS.toNanos(20)));
        assertThrows(BatchMemoryFullException.class, () -> memory.reserve(11, TimeUnit.SECONDS.toNanos(10)));
    }

    @Test
    void shouldRejectReleasingMoreThanHeld() {
        BatchMemory memory = new BatchMemory(10);
        assertThrows(IllegalStateException.class, () -> memory.release(1));
    }
}
