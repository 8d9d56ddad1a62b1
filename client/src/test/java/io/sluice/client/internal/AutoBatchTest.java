package io.sluice.client.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.UnpooledByteBufAllocator;
import io.sluice.client.ClientException;
import io.sluice.client.Message;
import io.sluice.client.SendCallback;
import io.sluice.client.SendResult;
import io.sluice.client.SendStatus;
import io.sluice.format.UniqKeyGenerator;
import io.sluice.remoting.protocol.body.MessageQueue;
import java.nio.charset.StandardCharsets;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * One auto-batch's outcome: every waiter (future or callback) is told once, with its own result or the batch's
 * error, a result count that does not match fails them all, a throwing callback costs nobody else theirs, and the
 * batch's reserved memory is given back exactly once, after the waiters were told.
 */
@Timeout(10)
class AutoBatchTest {

    private static final UniqKeyGenerator KEYS = new UniqKeyGenerator(new byte[] {10, 1, 2, 3}, 77, 5,
            () -> 1_700_000_000_000L, ZoneId.of("UTC"));
    private static final MessageQueue QUEUE = new MessageQueue("T", "broker-a", 1);

    private final BatchMemory memory = new BatchMemory(1 << 20);
    private final CallbackTeller callbacks = new CallbackTeller();
    private final List<String> told = new ArrayList<>();
    private final List<BatchBody> bodies = new ArrayList<>();

    @AfterEach
    void freeBodies() {
        bodies.forEach(BatchBody::release);
    }

    @Test
    void eachWaiterHearsItsOwnResultAndTheMemoryComesBackOnce() {
        CompletableFuture<SendResult> first = new CompletableFuture<>();
        AutoBatch batch = reservedBatch(first, recording("second"));
        assertEquals(2, batch.count());
        assertEquals(2 * "message-0".length(), batch.bodyBytes(), "bodies alone");
        assertTrue(batch.bytes() > batch.bodyBytes(), "the encoded entries carry their headers too");
        assertEquals(batch.bytes(), memory.heldBytes());

        SendResult one = result("id-1", 7);
        SendResult two = result("id-2", 8);
        batch.succeeded(List.of(one, two));
        assertSame(one, first.join());
        assertEquals(List.of("second ok id-2"), told);
        assertEquals(0, memory.heldBytes());

        batch.failed(new IllegalStateException("late"));
        batch.succeeded(List.of(one, two));
        assertEquals(List.of("second ok id-2"), told, "an outcome acts once");
        assertEquals(0, memory.heldBytes(), "and gives the memory back once");
    }

    @Test
    void aResultCountThatDoesNotMatchFailsEveryWaiter() {
        CompletableFuture<SendResult> first = new CompletableFuture<>();
        AutoBatch batch = reservedBatch(first, recording("second"));
        batch.succeeded(List.of(result("id-1", 0)));
        CompletionException e = assertThrows(CompletionException.class, first::join);
        assertInstanceOf(ClientException.class, e.getCause());
        assertEquals("send of a batch of 2 gave 1 results", e.getCause().getMessage());
        assertEquals(List.of("second failed send of a batch of 2 gave 1 results"), told);
        assertEquals(0, memory.heldBytes());
    }

    @Test
    void aFailedBatchTellsItsErrorToEveryoneEvenPastAThrowingCallback() {
        SendCallback throwing = new SendCallback() {
            @Override
            public void onSuccess(SendResult result) {
                throw new IllegalStateException("caller bug");
            }

            @Override
            public void onException(Throwable error) {
                throw new IllegalStateException("caller bug");
            }
        };
        CompletableFuture<SendResult> second = new CompletableFuture<>();
        AutoBatch batch = reservedBatch(throwing, second, recording("third"));
        IllegalStateException error = new IllegalStateException("broker gone");
        batch.failed(error);
        assertEquals(1, callbacks.failures());
        assertTrue(second.isCompletedExceptionally());
        assertSame(error, assertThrows(CompletionException.class, second::join)
                .getCause());
        assertEquals(List.of("third failed broker gone"), told);
        assertEquals(0, memory.heldBytes());
    }

    /** A batch of one message ("message-i") per waiter, its bytes reserved as the accumulator reserves them. */
    private AutoBatch reservedBatch(Object... waiters) {
        BatchBody body = BatchBody.allocate(new UnpooledByteBufAllocator(false), 256, 4, 1 << 16);
        bodies.add(body);
        AutoBatch batch = new AutoBatch(new BatchKey("T", null, true, null), 0, memory, body, 2, callbacks);
        for (int i = 0; i < waiters.length; i++) {
            Message message = Message.builder("T", ("message-" + i).getBytes(StandardCharsets.UTF_8)).build();
            batch.add(message, BatchEntryWriter.propertiesBytes(message, KEYS.keyChars()), KEYS, waiters[i]);
        }
        memory.reserveOrFail(batch.bytes());
        return batch;
    }

    private SendCallback recording(String name) {
        return new SendCallback() {
            @Override
            public void onSuccess(SendResult result) {
                told.add(name + " ok " + result.msgId());
            }

            @Override
            public void onException(Throwable error) {
                told.add(name + " failed " + error.getMessage());
            }
        };
    }

    private static SendResult result(String msgId, long queueOffset) {
        return new SendResult(SendStatus.SEND_OK, msgId, "offset-" + msgId, QUEUE, queueOffset, null);
    }
}
