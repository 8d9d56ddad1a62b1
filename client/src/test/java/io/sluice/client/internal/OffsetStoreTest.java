package io.sluice.client.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.remoting.protocol.body.MessageQueue;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

class OffsetStoreTest {
    private static final MessageQueue QUEUE = new MessageQueue("T", "broker-a", 0);

    /** One commit the store sent; the test completes its future as the broker's answer. */
    private record Sent(MessageQueue queue, long offset, boolean oneway, CompletableFuture<Void> answer) {
    }

    private final List<Sent> sent = new ArrayList<>();
    private final OffsetStore store = new OffsetStore((queue, offset, oneway) -> {
        CompletableFuture<Void> answer = new CompletableFuture<>();
        sent.add(new Sent(queue, offset, oneway, answer));
        return answer;
    });

    private Sent lastSent() {
        return sent.get(sent.size() - 1);
    }

    @Test
    void shouldNotResendAnOffsetTheBrokerHolds() {
        store.reset(QUEUE, 10);
        store.commitAll(true);
        lastSent().answer().complete(null);

        store.commitAll(true);

        assertEquals(1, sent.size());
        assertEquals(10, sent.get(0).offset());
    }

    @Test
    void shouldResendAnOffsetWhoseCommitFailed() {
        store.reset(QUEUE, 10);
        store.commitAll(true);
        lastSent().answer().completeExceptionally(new IllegalStateException("connection closed"));

        store.commitAll(true);

        assertEquals(2, sent.size());
        assertEquals(10, lastSent().offset());
    }

    @Test
    void shouldResendAnUnchangedOffsetAfterAPullThatCarriedAnOffsetWasAnswered() {
        store.reset(QUEUE, 10);
        store.commitAll(true);
        lastSent().answer().complete(null);

        // A pull sent earlier carried offset 7; the broker handled it after the commit of 10 and holds 7 now.
        store.pullAnswered(QUEUE);
        store.commitAll(true);

        assertEquals(2, sent.size());
        assertEquals(10, lastSent().offset());
    }

    @Test
    void shouldNotTrustACommitAnsweredAfterAPullWasAnswered() {
        store.reset(QUEUE, 10);
        store.commitAll(true);
        store.pullAnswered(QUEUE);
        lastSent().answer().complete(null);

        store.commitAll(true);
        lastSent().answer().complete(null);
        store.commitAll(true);

        assertEquals(2, sent.size(), "one resend after the pull, none after the resend was answered");
    }

    @Test
    void shouldCommitEveryOffsetAtTheEndAndWaitForTheAnswers() {
        MessageQueue other = new MessageQueue("T", "broker-a", 1);
        store.reset(QUEUE, 10);
        store.reset(other, 3);
        store.commitAll(true);
        sent.forEach(commit -> commit.answer().complete(null));

        CompletableFuture<Void> last = store.commitEverything();

        assertEquals(4, sent.size());
        assertTrue(sent.subList(2, 4).stream().noneMatch(Sent::oneway), "the last commits wait for answers");
        assertTrue(!last.isDone());
        sent.subList(2, 4).forEach(commit -> commit.answer().complete(null));
        assertTrue(last.isDone());
    }

    @Test
    void shouldCommitTheOffsetOfARemovedQueueAndForgetTheQueue() {
        store.reset(QUEUE, 10);
        store.advance(QUEUE, 12);
        store.advance(QUEUE, 11);

        store.commitAndRemove(QUEUE);
        store.commitAll(true);

        assertEquals(1, sent.size());
        assertEquals(12, sent.get(0).offset());
        assertEquals(-1, store.get(QUEUE));
    }
}
