package io.sluice.client.internal;

import io.sluice.client.ConcurrentListener;
import io.sluice.client.ConsumeStatus;
import io.sluice.client.ReceivedMessage;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs a {@link ConcurrentListener} on the consume threads, {@code batchSize} messages per call. Messages the
 * listener fails are sent back to the broker (CONSUMER_SEND_MSG_BACK) for redelivery through the retry topic; if
 * that fails too they are consumed again locally after {@link #LOCAL_RETRY_DELAY_MS}. A message leaves its
 * {@link ProcessQueue} once consumed or sent back, and the queue's offset moves to its smallest unfinished message.
 * Thread-safe.
 */
public final class ConcurrentDispatch implements ConsumeDispatch {
    private static final Logger LOG = LoggerFactory.getLogger(ConcurrentDispatch.class);
    /** Delay before messages that could not be sent back are consumed again. */
    static final long LOCAL_RETRY_DELAY_MS = 5000;

    private final ConcurrentListener listener;
    private final ExecutorService consumers;
    private final ScheduledExecutorService timer;
    private final ConsumerRpc rpc;
    private final OffsetStore offsets;
    private final int batchSize;
    private final int maxReconsumeTimes;

    public ConcurrentDispatch(ConcurrentListener listener, ExecutorService consumers, ScheduledExecutorService timer,
                              ConsumerRpc rpc, OffsetStore offsets, int batchSize, int maxReconsumeTimes) {
        this.listener = listener;
        this.consumers = consumers;
        this.timer = timer;
        this.rpc = rpc;
        this.offsets = offsets;
        this.batchSize = batchSize;
        this.maxReconsumeTimes = maxReconsumeTimes;
    }

    @Override
    public void onAdded(ProcessQueue queue) {
    }

    @Override
    public boolean mayPull(ProcessQueue queue) {
        return true;
    }

    @Override
    public void submit(ProcessQueue queue, List<ReceivedMessage> messages) {
        for (int from = 0; from < messages.size(); from += batchSize) {
            List<ReceivedMessage> batch = messages.subList(from, Math.min(messages.size(), from + batchSize));
            execute(() -> consume(queue, batch));
        }
    }

    @Override
    public void onRemoved(ProcessQueue queue) {
    }

    @Override
    public void close() {
        consumers.shutdown();
        try {
            consumers.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        consumers.shutdownNow();
    }

    private void execute(Runnable task) {
        try {
            consumers.execute(task);
        } catch (RejectedExecutionException closed) {
            LOG.debug("consumer closed; a batch is left unconsumed");
        }
    }

    private void consume(ProcessQueue queue, List<ReceivedMessage> batch) {
        if (queue.isDropped()) {
            return;
        }
        ConsumeStatus status;
        try {
            status = listener.consume(batch);
        } catch (RuntimeException e) {
            LOG.warn("listener failed on {} messages of {}: {}", batch.size(), queue.queue(), e.toString());
            status = ConsumeStatus.RECONSUME_LATER;
        }
        if (status == ConsumeStatus.SUCCESS) {
            finish(queue, batch);
            return;
        }
        List<CompletableFuture<Boolean>> sendBacks = new ArrayList<>(batch.size());
        for (ReceivedMessage message : batch) {
            sendBacks.add(rpc.sendBack(queue.queue(), message, 0, maxReconsumeTimes).handle((ok, error) -> {
                if (error != null) {
                    LOG.debug("send-back of {} failed: {}", message.msgId(), Rpc.unwrap(error).toString());
                }
                return error == null;
            }));
        }
        CompletableFuture.allOf(sendBacks.toArray(CompletableFuture[]::new)).thenRun(() -> {
            List<ReceivedMessage> sentBack = new ArrayList<>();
            List<ReceivedMessage> retryLocally = new ArrayList<>();
            for (int i = 0; i < batch.size(); i++) {
                (sendBacks.get(i).join() ? sentBack : retryLocally).add(batch.get(i));
            }
            finish(queue, sentBack);
            if (!retryLocally.isEmpty()) {
                timer.schedule(() -> execute(() -> consume(queue, retryLocally)), LOCAL_RETRY_DELAY_MS,
                        TimeUnit.MILLISECONDS);
            }
        });
    }

    private void finish(ProcessQueue queue, List<ReceivedMessage> done) {
        if (done.isEmpty()) {
            return;
        }
        long offset = queue.remove(done);
        if (!queue.isDropped()) {
            offsets.advance(queue.queue(), offset);
        }
    }
}
