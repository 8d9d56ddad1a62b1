package io.sluice.client.internal;

import io.sluice.testing.Await;
import io.sluice.format.BatchBodyDescriptor;
import io.sluice.format.MessageIdDescriptor;
import io.sluice.format.MessageProperties;
import io.sluice.format.UniqKeyGenerator;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.client.BatchMemoryFullException;
import io.sluice.client.ClientException;
import io.sluice.client.Message;
import io.sluice.client.SendCallback;
import io.sluice.client.SendResult;
import io.sluice.remoting.protocol.RemotingCommand;
import io.sluice.remoting.protocol.ResponseCode;
import io.sluice.remoting.transport.RemotingTimeoutException;
import java.nio.ByteBuffer;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

/**
 * Auto-batching end to end through the real {@link RoutedSender} over a transport that fails at random: every
 * message's future or callback is told once (its own result or its batch's error), also when other callbacks of
 * its batch throw, and every reserved byte is given back.
 */
class AccumulatorPropertyTest {
    private static ExecutorService async;

    @BeforeContainer
    static void startExecutor() {
        async = Executors.newFixedThreadPool(2);
    }

    @AfterContainer
    static void stopExecutor() {
        async.shutdownNow();
    }

    @Property(tries = 100)
    void shouldGiveBackEveryReservedByteWhateverFails(@ForAll long seed,
                                                      @ForAll @IntRange(min = 100, max = 3000) int batchMaxBytes,
                                                      @ForAll @IntRange(min = 1, max = 5) int delayMs,
                                                      @ForAll boolean failWhenFull) throws Exception {
        Random random = new Random(seed);
        TopicRoute route = TestRoutes.route("T", 2, 4);
        RandomInvoker invoker = new RandomInvoker(random);
        RouteSource routes = topic -> random.nextInt(40) == 0
                ? CompletableFuture.failedFuture(new ClientException("no route"))
                : CompletableFuture.completedFuture(route);
        RoutedSender agent = new RoutedSender(invoker, routes, new FailedBrokers(50, System::nanoTime), "g", 500,
                random.nextInt(3), 4);
        BatchMemory memory = new BatchMemory(batchMaxBytes * 3L);
        UniqKeyGenerator keys = new UniqKeyGenerator(new byte[] {10, 0, 0, 9}, 1, 1, System::currentTimeMillis,
                ZoneId.of("UTC"));
        Accumulator accumulator = new Accumulator(batchMaxBytes, batchMaxBytes * 2, delayMs, failWhenFull, 200,
                memory, keys, new CallbackTeller(), agent::send, "test-linger");
        List<CompletableFuture<SendResult>> futures = new ArrayList<>();
        List<Long> sent = new ArrayList<>();
        AtomicInteger refused = new AtomicInteger();
        AtomicInteger toldTwice = new AtomicInteger();
        AtomicInteger throwing = new AtomicInteger();
        int messages = 20 + random.nextInt(60);
        CompletableFuture<?>[] senders = new CompletableFuture<?>[2];
        for (int s = 0; s < senders.length; s++) {
            long senderSeed = random.nextLong();
            long sender = s;
            senders[s] = CompletableFuture.runAsync(() -> {
                Random own = new Random(senderSeed);
                for (int i = 0; i < messages; i++) {
                    // Each body starts with its own id, by which the invoker learns the UNIQ_KEY it travelled with.
                    byte[] body = new byte[Long.BYTES + own.nextInt(Math.min(batchMaxBytes, 400))];
                    long id = sender << 32 | i;
                    ByteBuffer.wrap(body).putLong(id);
                    String tag = own.nextBoolean() ? "a" : null;
                    Message message = Message.builder("T", body).tags(tag).build();
                    int propertiesBytes = BatchEntryWriter.propertiesBytes(message, keys.keyChars());
                    int style = own.nextInt(3); // 0: a future; 1: a callback; 2: a callback that throws
                    try {
                        CompletableFuture<SendResult> future;
                        if (style == 0) {
                            future = accumulator.add(message, propertiesBytes, null);
                        } else {
                            future = new CompletableFuture<>();
                            accumulator.add(message, propertiesBytes, null, new RecordingCallback(future,
                                    style == 2, toldTwice));
                            if (style == 2) {
                                throwing.incrementAndGet(); // added: it will be told, and throw
                            }
                        }
                        synchronized (futures) {
                            futures.add(future);
                            sent.add(id);
                        }
                    } catch (BatchMemoryFullException e) {
                        refused.incrementAndGet();
                    }
                }
            });
        }
        CompletableFuture.allOf(senders).get(30, TimeUnit.SECONDS);
        Await.until("every send to complete", () -> futures.stream().allMatch(CompletableFuture::isDone));
        accumulator.close();
        Await.until("every batch to give its bytes back", () -> memory.heldBytes() == 0);
        Await.until("every batch body to be released", () -> accumulator.bodyBuffersInUse() == 0);
        for (int i = 0; i < futures.size(); i++) {
            CompletableFuture<SendResult> future = futures.get(i);
            if (!future.isCompletedExceptionally()) {
                SendResult result = future.join();
                assertEquals(invoker.uniqKeys.get(sent.get(i)), result.msgId(), "each message keeps its own id");
                assertTrue(result.queueOffset() >= 0);
            }
        }
        assertEquals(2 * messages, futures.size() + refused.get());
        assertEquals(0, toldTwice.get(), "no callback is told twice");
        assertEquals(throwing.get(), accumulator.callbackFailures(), "every callback that threw is counted");
    }

    /** Hands the outcome to a future; may throw afterwards, as a buggy caller's callback would. */
    private record RecordingCallback(CompletableFuture<SendResult> outcome, boolean throwAfter,
                                     AtomicInteger toldTwice) implements SendCallback {
        @Override
        public void onSuccess(SendResult result) {
            told(outcome.complete(result));
        }

        @Override
        public void onException(Throwable error) {
            told(outcome.completeExceptionally(error));
        }

        private void told(boolean first) {
            if (!first) {
                toldTwice.incrementAndGet();
            }
            if (throwAfter) {
                throw new IllegalStateException("callback bug");
            }
        }
    }

    /** Answers send requests with a random mix of successes, error codes, malformed answers and failures. */
    private static final class RandomInvoker implements Invoker {
        private final Random random;
        private final AtomicInteger offsets = new AtomicInteger();
        /** The UNIQ_KEY each message (by the id its body starts with) was sent with. */
        final Map<Long, String> uniqKeys = new ConcurrentHashMap<>();

        RandomInvoker(Random random) {
            this.random = random;
        }

        @Override
        public CompletableFuture<RemotingCommand> invoke(String address, RemotingCommand request, long timeoutMs) {
            int choice;
            boolean later;
            synchronized (random) {
                choice = random.nextInt(9);
                later = random.nextBoolean();
            }
            if (choice == 0) {
                throw new IllegalStateException("transport exploded");
            }
            // A transport releases the body it was handed once it has sent it.
            List<BatchBodyDescriptor.Message> entries = BatchBodyDescriptor.decode(ByteBuffer.wrap(request.body()));
            request.releaseBody();
            for (BatchBodyDescriptor.Message entry : entries) {
                String uniqKey = MessageProperties.parse(entry.properties()).get(MessageProperties.UNIQ_KEY);
                String before = uniqKeys.putIfAbsent(ByteBuffer.wrap(entry.body()).getLong(), uniqKey);
                if (before != null && !before.equals(uniqKey)) {
                    throw new AssertionError("a message was sent again with another UNIQ_KEY: " + before + ", "
                            + uniqKey);
                }
            }
            CompletableFuture<RemotingCommand> answer = new CompletableFuture<>();
            Runnable complete = () -> {
                int count = entries.size();
                switch (choice) {
                    case 1 -> answer.completeExceptionally(new RemotingTimeoutException("no answer"));
                    case 2 -> answer.complete(RemotingCommand.response(ResponseCode.SERVICE_NOT_AVAILABLE, "busy"));
                    case 3 -> answer.complete(RemotingCommand.response(ResponseCode.MESSAGE_ILLEGAL, "bad"));
                    case 4 -> answer.complete(stored(count + 1, null));
                    case 5 -> answer.complete(RemotingCommand.response(ResponseCode.SUCCESS, null));
                    case 6 -> answer.complete(stored(1, "BATCH"));
                    default -> answer.complete(stored(count, null));
                }
            };
            if (later) {
                async.execute(complete);
            } else {
                complete.run();
            }
            return answer;
        }

        @Override
        public CompletableFuture<Void> invokeOneway(String address, RemotingCommand request) {
            return CompletableFuture.completedFuture(null);
        }

        private RemotingCommand stored(int ids, String batchUniqId) {
            List<String> msgIds = new ArrayList<>();
            for (int i = 0; i < ids; i++) {
                msgIds.add(MessageIdDescriptor.offsetMsgId(new byte[] {10, 0, 0, 1}, 10911, i));
            }
            int base = offsets.getAndAdd(Math.max(1, ids));
            RemotingCommand response = RemotingCommand.response(ResponseCode.SUCCESS, null)
                    .putExtField("msgId", String.join(",", msgIds)).putExtField("queueId", 1)
                    .putExtField("queueOffset", base);
            return batchUniqId == null ? response : response.putExtField("batchUniqId", batchUniqId);
        }
    }
}
