package io.sluice.client.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.remoting.protocol.body.MessageQueue;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

class OffsetStoreTest {
    private static final MessageQueue QUEUE = new MessageQueue("T", "broker-a", 0);
    private static final MessageQueue OTHER = new MessageQueue("T", "broker-a", 1);

    /** One commit the store sent; the test completes its future as the broker's answer. */
    private record Sent(MessageQueue queue, long offset, CompletableFuture<Void> answer) {
    }

    private final List<Sent> sent = new ArrayList<>();
    private final OffsetStore store = new OffsetStore((queue, offset) -> {
        CompletableFuture<Void> answer = new CompletableFuture<>();
        sent.add(new Sent(queue, offset, answer));
        return answer;
    });

    private Sent lastSent() {
        return sent.get(sent.size() - 1);
    }

    private void answerAll() {
        List.copyOf(sent).forEach(commit -> commit.answer().complete(null));
    }

    @Test
    void shouldNotResendAnOffsetTheBrokerHolds() {
        store.reset(QUEUE, 10);
        store.commitAll();
        answerAll();

        store.commitAll();

        assertEquals(1, sent.size());
        assertEquals(10, sent.get(0).offset());
    }

    @Test
    void shouldResendAnOffsetWhoseCommitFailed() {
        store.reset(QUEUE, 10);
        CompletableFuture<Void> round = store.commitAll();
        lastSent().answer().completeExceptionally(new IllegalStateException("connection closed"));
        assertTrue(round.isDone() && !round.isCompletedExceptionally(), "a failed round still ends");

        store.commitAll();

        assertEquals(2, sent.size());
        assertEquals(10, lastSent().offset());
    }

    @Test
    void shouldNotStartARoundWhileTheLastIsUnanswered() {
        store.reset(QUEUE, 10);
        store.commitAll();
        store.advance(QUEUE, 20);

        store.commitAll();
        assertEquals(1, sent.size(), "the tick found a round in flight");

        answerAll();
        store.commitAll();
        assertEquals(2, sent.size());
        assertEquals(20, lastSent().offset());
    }

    /** Apache's broker may handle two commits of one queue in either order: the last one must be sent alone. */
    @Test
    void shouldSendTheLastCommitsOnlyAfterEveryEarlierCommitWasAnswered() {
        store.reset(QUEUE, 8);
        store.reset(OTHER, 3);
        store.commitAll();
        store.advance(QUEUE, 400);

        CompletableFuture<Void> last = store.commitEverything();
        assertEquals(2, sent.size(), "nothing more is sent while the round that carries 8 is unanswered");

        answerAll();
        assertEquals(4, sent.size(), "every offset, held or not");
        assertTrue(sent.subList(2, 4).stream().anyMatch(commit -> commit.queue().equals(QUEUE)
                && commit.offset() == 400));
        assertFalse(last.isDone());
        sent.subList(2, 4).forEach(commit -> commit.answer().complete(null));
        assertTrue(last.isDone());
    }

    @Test
    void shouldReportAFailedLastCommit() {
        store.reset(QUEUE, 10);
        CompletableFuture<Void> last = store.commitEverything();
        lastSent().answer().completeExceptionally(new IllegalStateException("broker gone"));
        assertTrue(last.isCompletedExceptionally());

        store.commitAll();
        assertEquals(2, sent.size(), "a later round is not blocked by the failure");
    }

    @Test
    void shouldCommitTheOffsetOfARemovedQueueAfterTheRoundInFlightAndForgetTheQueue() {
        store.reset(QUEUE, 10);
        store.commitAll();
        store.advance(QUEUE, 12);
        store.advance(QUEUE, 11);

        store.commitAndRemove(QUEUE);
        assertEquals(1, sent.size());
        answerAll();

        assertEquals(2, sent.size());
        assertEquals(12, lastSent().offset());
        assertEquals(-1, store.get(QUEUE));
        lastSent().answer().complete(null);
        store.commitAll();
        assertEquals(2, sent.size());
    }
}
