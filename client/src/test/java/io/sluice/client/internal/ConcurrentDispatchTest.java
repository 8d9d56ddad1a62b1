package io.sluice.client.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.client.ConcurrentListener;
import io.sluice.client.ConsumeStatus;
import io.sluice.client.ReceivedMessage;
import io.sluice.remoting.protocol.body.MessageQueue;
import io.sluice.testing.Await;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Concurrent consumption of pulled messages: the listener gets them in batches of at most the batch size; a
 * consumed message leaves its queue and the queue's offset moves to its smallest unfinished message, so a batch
 * that finishes early never moves the offset past one still running; a dropped queue's messages are neither
 * consumed nor committed.
 */
@Timeout(30)
class ConcurrentDispatchTest {

    private static final MessageQueue QUEUE = new MessageQueue("T", "broker-a", 2);

    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
    private final OffsetStore offsets = new OffsetStore((queue, offset) -> CompletableFuture.completedFuture(null));
    private ConcurrentDispatch dispatch;

    @AfterEach
    void close() {
        dispatch.close();
        timer.shutdownNow();
    }

    @Test
    void messagesGoToTheListenerInBatchesAndTheOffsetFollows() {
        List<List<Long>> batches = Collections.synchronizedList(new ArrayList<>());
        dispatch = dispatch(messages -> {
            batches.add(messages.stream().map(ReceivedMessage::queueOffset).toList());
            return ConsumeStatus.SUCCESS;
        }, Executors.newSingleThreadExecutor(), 4);
        ProcessQueue queue = pulled(0, 10);
        dispatch.submit(queue, new ArrayList<>(queueMessages(0, 10)));
        Await.until("every message consumed", 10_000, () -> offsets.get(QUEUE) == 10, () -> offsets.get(QUEUE));
        assertEquals(List.of(List.of(0L, 1L, 2L, 3L), List.of(4L, 5L, 6L, 7L), List.of(8L, 9L)), batches);
        assertTrue(queue.isEmpty());
        assertTrue(dispatch.mayPull(queue), "concurrent consumption never holds pulls back");
    }

    @Test
    void anEarlyBatchStillRunningHoldsTheOffsetBack() throws InterruptedException {
        CountDownLatch firstMayFinish = new CountDownLatch(1);
        CountDownLatch othersDone = new CountDownLatch(2);
        dispatch = dispatch(messages -> {
            if (messages.get(0).queueOffset() == 0) {
                await(firstMayFinish);
            } else {
                othersDone.countDown();
            }
            return ConsumeStatus.SUCCESS;
        }, Executors.newFixedThreadPool(3), 2);
        ProcessQueue queue = pulled(0, 6);
        dispatch.submit(queue, queueMessages(0, 6));
        assertTrue(othersDone.await(10, TimeUnit.SECONDS));
        Await.until("the later batches finished", 10_000, () -> queue.count() == 2 && offsets.get(QUEUE) >= 0,
                () -> queue.count() + " waiting, offset " + offsets.get(QUEUE));
        assertEquals(0, offsets.get(QUEUE), "offsets 0 and 1 are still being consumed");
        firstMayFinish.countDown();
        Await.until("the first batch done", 10_000, () -> offsets.get(QUEUE) == 6, () -> offsets.get(QUEUE));
    }

    @Test
    void aDroppedQueueIsNeitherConsumedNorCommitted() throws InterruptedException {
        List<Long> consumed = Collections.synchronizedList(new ArrayList<>());
        CountDownLatch inListener = new CountDownLatch(1);
        CountDownLatch mayReturn = new CountDownLatch(1);
        dispatch = dispatch(messages -> {
            messages.forEach(m -> consumed.add(m.queueOffset()));
            inListener.countDown();
            await(mayReturn);
            return ConsumeStatus.SUCCESS;
        }, Executors.newSingleThreadExecutor(), 2);
        ProcessQueue queue = pulled(10, 4);
        dispatch.submit(queue, queueMessages(10, 4));
        assertTrue(inListener.await(10, TimeUnit.SECONDS));
        queue.drop();
        mayReturn.countDown();
        dispatch.close();
        assertEquals(List.of(10L, 11L), consumed, "the batch queued behind the drop is skipped");
        assertEquals(-1, offsets.get(QUEUE), "nothing of a dropped queue is committed");
    }

    private ConcurrentDispatch dispatch(ConcurrentListener listener, ExecutorService consumers,
                                        int batchSize) {
        // No send-back client: these listeners never fail a batch.
        return new ConcurrentDispatch(listener, consumers, timer, null, offsets, batchSize, 16);
    }

    private static ProcessQueue pulled(long firstOffset, int count) {
        ProcessQueue queue = new ProcessQueue(QUEUE);
        queue.add(queueMessages(firstOffset, count));
        return queue;
    }

    private static List<ReceivedMessage> queueMessages(long firstOffset, int count) {
        List<ReceivedMessage> messages = new ArrayList<>();
        for (long offset = firstOffset; offset < firstOffset + count; offset++) {
            messages.add(new ReceivedMessage(QUEUE.topic(), QUEUE.queueId(), QUEUE.brokerName(), offset,
                    new byte[] {1, 2, 3}, 0, 0, Map.of(), 0, null, 0, null, 0, 0, "id" + offset));
        }
        return messages;
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
