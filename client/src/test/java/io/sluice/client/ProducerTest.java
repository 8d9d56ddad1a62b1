package io.sluice.client;

import io.sluice.testing.Await;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.remoting.protocol.RequestCode;
import io.sluice.remoting.protocol.ResponseCode;
import io.sluice.remoting.protocol.body.MessageQueue;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class ProducerTest {
    private FakeCluster cluster;
    private final List<Producer> producers = new ArrayList<>();

    @BeforeEach
    void startCluster() {
        cluster = new FakeCluster(2);
        cluster.topic("Simple", 4, false);
        cluster.topic("Batched", 4, true);
    }

    @AfterEach
    void stop() {
        producers.forEach(Producer::close);
        cluster.close();
    }

    private Producer producer(boolean autoBatch) {
        return producer(builder().autoBatch(autoBatch));
    }

    private ProducerSettings.Builder builder() {
        return ProducerSettings.builder(connection()).producerGroup("pg").sendTimeoutMs(10_000);
    }

    /** Generous timeouts: the build machine may be heavily loaded. */
    private ConnectionSettings connection() {
        return ConnectionSettings.of(cluster.namesrvAddress()).withClientIp("127.0.0.1").withRpcTimeoutMs(10_000);
    }

    private Producer producer(ProducerSettings.Builder builder) {
        Producer producer = Producer.start(builder.build());
        producers.add(producer);
        return producer;
    }

    @Test
    void shouldSendSynchronouslyWithTheMessagesOwnIdAndStoreItsProperties() {
        Producer producer = producer(false);
        Message message = Message.builder("Simple", "hello".getBytes()).tags("A").keys("k1 k2").flag(3)
                .property("p", "v").build();
        SendResult result = producer.send(message);
        assertEquals(SendStatus.SEND_OK, result.status());
        assertEquals(32, result.msgId().length());
        assertNull(result.batchUniqId());
        FakeCluster.Stored stored = storedEverywhere().get(0);
        assertArrayEquals("hello".getBytes(), stored.body());
        assertEquals(result.msgId(), stored.properties().get("UNIQ_KEY"));
        assertEquals("A", stored.properties().get("TAGS"));
        assertEquals("k1 k2", stored.properties().get("KEYS"));
        assertEquals("v", stored.properties().get("p"));
        assertEquals(3, stored.flag());
        assertEquals(result.queue().queueId(), stored.queueId());
        assertEquals(RequestCode.SEND_MESSAGE_V2, allSendRequests().get(0).code());
    }

    @Test
    void shouldGiveEveryAutoBatchedMessageItsOwnResultOnASimpleTopic() throws Exception {
        // The batch is held until close() ships it, so a stall of the sending loop cannot split it in two.
        Producer producer = producer(builder().autoBatch(true).batchMaxDelayMs(30_000).batchMaxBytes(64 * 1024));
        List<CompletableFuture<SendResult>> futures = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            futures.add(producer.sendAsync(Message.of("Simple", ("m" + i).getBytes())));
        }
        producer.close();
        List<SendResult> results = join(futures);
        assertEquals(1, allSendRequests().size(), "one batch request");
        assertEquals(RequestCode.SEND_BATCH_MESSAGE, allSendRequests().get(0).code());
        Set<String> ids = results.stream().map(SendResult::msgId).collect(Collectors.toSet());
        assertEquals(20, ids.size());
        for (int i = 0; i < 20; i++) {
            assertEquals(results.get(0).queueOffset() + i, results.get(i).queueOffset());
            assertEquals(results.get(0).queue(), results.get(i).queue());
            assertNull(results.get(i).batchUniqId());
        }
        assertEquals(20, results.stream().map(SendResult::offsetMsgId).distinct().count());
        Await.until("batch memory given back", () -> producer.heldBatchBytes() == 0);
    }

    @Test
    void shouldTellEveryAutoBatchedCallbackFromItsBatchEvenWhenOneThrows() throws Exception {
        // Held until close() ships it: one batch whose third callback throws.
        Producer producer = producer(builder().autoBatch(true).batchMaxDelayMs(30_000));
        List<CompletableFuture<SendResult>> told = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            CompletableFuture<SendResult> outcome = new CompletableFuture<>();
            boolean throwing = i == 2;
            producer.sendAsync(Message.of("Simple", ("c" + i).getBytes()), new SendCallback() {
                @Override
                public void onSuccess(SendResult result) {
                    outcome.complete(result);
                    if (throwing) {
                        throw new IllegalStateException("a caller's bug");
                    }
                }

                @Override
                public void onException(Throwable error) {
                    outcome.completeExceptionally(error);
                }
            });
            told.add(outcome);
        }
        producer.close();
        List<SendResult> results = join(told);
        assertEquals(1, allSendRequests().size(), "one batch request");
        for (int i = 0; i < 5; i++) {
            assertEquals(results.get(0).queueOffset() + i, results.get(i).queueOffset());
        }
        assertEquals(5, results.stream().map(SendResult::msgId).distinct().count());
        Await.until("batch memory given back", () -> producer.heldBatchBytes() == 0);
    }

    @Test
    void shouldGiveInnerBatchMessagesTheBaseOffsetPlusTheirIndexOnABatchCqTopic() throws Exception {
        Producer producer = producer(builder().autoBatch(true).batchMaxDelayMs(30_000));
        List<CompletableFuture<SendResult>> futures = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            futures.add(producer.sendAsync(Message.builder("Batched", ("m" + i).getBytes()).tags("T").build()));
        }
        producer.close(); // ships the one held batch
        List<SendResult> results = join(futures);
        String batchId = results.get(0).batchUniqId();
        assertEquals(32, batchId.length());
        for (int i = 0; i < 5; i++) {
            assertEquals(batchId, results.get(i).batchUniqId());
            assertEquals(results.get(0).queueOffset() + i, results.get(i).queueOffset());
            assertNotEquals(batchId, results.get(i).msgId());
        }
        assertEquals("T", io.sluice.format.MessageProperties.parse(allSendRequests().get(0).extField("i"))
                .get("TAGS"));
    }

    @Test
    void shouldShipABatchOnTheSendingThreadOnceItReachesBatchMaxBytes() throws Exception {
        Producer producer = producer(builder().autoBatch(true).batchMaxBytes(1000).batchMaxDelayMs(30_000));
        List<CompletableFuture<SendResult>> futures = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            futures.add(producer.sendAsync(Message.of("Simple", new byte[334]))); // 3 bodies reach 1000 bytes
        }
        Await.until("three full batches", () -> allSendRequests().size() >= 3);
        assertTrue(producer.batchCounts()[0] >= 3);
        Await.until("three batches done", () -> futures.subList(0, 9).stream().allMatch(CompletableFuture::isDone));
        assertTrue(!futures.get(9).isDone(), "the last message waits for more (its batch is not full)");
        producer.close();
        assertTrue(futures.get(9).isDone(), "close sends what auto-batching holds");
    }

    @Test
    void batchMaxBytesCountsTheBodiesOnlyAsApachesProducerDoes() throws Exception {
        Producer producer = producer(builder().autoBatch(true).batchMaxBytes(1000).batchMaxDelayMs(30_000));
        List<CompletableFuture<SendResult>> futures = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            futures.add(producer.sendAsync(Message.of("Simple", new byte[200])));
        }
        // Four entries encode to more than 1000 bytes (each adds its header and UNIQ_KEY), but 800 body bytes.
        assertEquals(0, producer.batchCounts()[0], "the batch left before its bodies reached batchMaxBytes");
        futures.add(producer.sendAsync(Message.of("Simple", new byte[200])));
        assertEquals(1, producer.batchCounts()[0], "the batch did not leave when its bodies reached batchMaxBytes");
        join(futures);
        assertEquals(1, allSendRequests().size());
    }

    @Test
    void shouldKeepMessagesWithDifferentTagsOrQueuesInDifferentBatches() throws Exception {
        Producer producer = producer(builder().autoBatch(true).batchMaxDelayMs(50));
        MessageQueue queue = new MessageQueue("Simple", "broker-1", 2);
        List<CompletableFuture<SendResult>> futures = List.of(
                producer.sendAsync(Message.builder("Simple", "a".getBytes()).tags("x").build()),
                producer.sendAsync(Message.builder("Simple", "b".getBytes()).tags("y").build()),
                producer.sendAsync(Message.of("Simple", "c".getBytes()), queue));
        List<SendResult> results = join(futures);
        assertEquals(3, allSendRequests().size());
        assertEquals(queue, results.get(2).queue());
    }

    @Test
    void shouldSendWithASelectorAndToANamedQueue() {
        Producer producer = producer(false);
        QueueSelector last = (queues, message, arg) -> queues.get(queues.size() - 1 - (Integer) arg);
        SendResult selected = producer.send(Message.of("Simple", "s".getBytes()), last, 1);
        assertEquals(new MessageQueue("Simple", "broker-1", 2), selected.queue());
        MessageQueue named = new MessageQueue("Simple", "broker-0", 1);
        assertEquals(named, producer.send(Message.of("Simple", "n".getBytes()), named).queue());
        assertThrows(IllegalArgumentException.class, () -> producer.send(Message.of("Simple", "x".getBytes()),
                (queues, message, arg) -> new MessageQueue("Simple", "broker-9", 0), null));
    }

    @Test
    void shouldSendAnExplicitBatchAndSplitItsResults() {
        Producer producer = producer(false);
        List<SendResult> results = producer.send(List.of(Message.of("Simple", "1".getBytes()),
                Message.of("Simple", "2".getBytes()), Message.of("Simple", "3".getBytes())));
        assertEquals(3, results.size());
        assertEquals(results.get(0).queueOffset() + 2, results.get(2).queueOffset());
        assertThrows(IllegalArgumentException.class, () -> producer.send(List.of(Message.of("Simple", "1".getBytes()),
                Message.of("Batched", "2".getBytes()))));
        assertThrows(IllegalArgumentException.class, () -> producer.send(List.<Message>of()));
    }

    @Test
    void shouldSendOnewayAndCallBackAsynchronously() throws Exception {
        Producer producer = producer(false);
        producer.sendOneway(Message.of("Simple", "o".getBytes()));
        Await.until("oneway message stored", () -> storedEverywhere().size() == 1);
        CompletableFuture<SendResult> callback = new CompletableFuture<>();
        producer.sendAsync(Message.of("Simple", "c".getBytes()), new SendCallback() {
            @Override
            public void onSuccess(SendResult result) {
                callback.complete(result);
            }

            @Override
            public void onException(Throwable error) {
                callback.completeExceptionally(error);
            }
        });
        assertEquals(SendStatus.SEND_OK, callback.get(10, TimeUnit.SECONDS).status());
    }

    @Test
    void shouldRetryOnTheOtherBrokerAfterARetryableCode() {
        Producer producer = producer(false);
        cluster.broker(0).failNext.add(ResponseCode.SYSTEM_BUSY);
        cluster.broker(1).failNext.add(ResponseCode.SYSTEM_BUSY);
        SendResult result = producer.send(Message.of("Simple", "r".getBytes()));
        assertEquals(SendStatus.SEND_OK, result.status());
        assertEquals(3, allSendRequests().size(), "two failed attempts, then a retry that succeeds");
        assertEquals(1, cluster.broker(0).sendRequests.size() + cluster.broker(1).sendRequests.size() - 2);
        assertTrue(!cluster.broker(0).sendRequests.isEmpty() && !cluster.broker(1).sendRequests.isEmpty(),
                "the retry after the first failure went to the other broker");
    }

    @Test
    void shouldGiveEveryCoBatchedCallerTheBatchsTypedError() throws Exception {
        // A long hold keeps the four sends in one batch even on a loaded machine; one injected failure per
        // possible batch keeps the assertion about every caller true if the scheduler splits them anyway.
        Producer producer = producer(builder().autoBatch(true).batchMaxDelayMs(1000).retryTimesWhenSendFailed(0));
        for (int i = 0; i < 4; i++) {
            cluster.broker(0).failNext.add(ResponseCode.MESSAGE_ILLEGAL);
            cluster.broker(1).failNext.add(ResponseCode.MESSAGE_ILLEGAL);
        }
        List<CompletableFuture<SendResult>> futures = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            futures.add(producer.sendAsync(Message.of("Simple", new byte[10])));
        }
        for (CompletableFuture<SendResult> future : futures) {
            ExecutionException failure = assertThrows(ExecutionException.class, () -> future.get(10, TimeUnit.SECONDS));
            BrokerErrorException error = assertInstanceOf(BrokerErrorException.class, failure.getCause());
            assertEquals(ResponseCode.MESSAGE_ILLEGAL, error.code());
            assertEquals("injected failure 13", error.remark());
        }
        Await.until("batch memory given back", () -> producer.heldBatchBytes() == 0);
        cluster.broker(0).failNext.clear();
        cluster.broker(1).failNext.clear();
        BrokerErrorException sync = assertThrows(BrokerErrorException.class, () -> {
            cluster.broker(0).failNext.add(ResponseCode.NO_PERMISSION);
            cluster.broker(1).failNext.add(ResponseCode.NO_PERMISSION);
            producer.send(Message.of("Simple", new byte[10]));
        });
        assertEquals(ResponseCode.NO_PERMISSION, sync.code());
    }

    @Test
    void shouldFailFastWhenBatchMemoryIsFullIfSoConfigured() {
        Producer producer = producer(builder().autoBatch(true).batchMaxBytes(4096).totalBatchMaxBytes(4096)
                .batchMaxDelayMs(30_000).failWhenBatchMemoryFull(true));
        producer.sendAsync(Message.of("Simple", new byte[3000]));
        BatchMemoryFullException full = assertThrows(BatchMemoryFullException.class,
                () -> producer.sendAsync(Message.of("Simple", new byte[3000])));
        assertTrue(full.getMessage().contains("totalBatchMaxBytes 4096"), full.getMessage());
    }

    @Test
    void shouldBlockWhenBatchMemoryIsFullUntilABatchCompletes() throws Exception {
        Producer producer = producer(builder().autoBatch(true).batchMaxBytes(4096).totalBatchMaxBytes(4096)
                .batchMaxDelayMs(200));
        CompletableFuture<SendResult> first = producer.sendAsync(Message.of("Simple", new byte[3000]));
        CompletableFuture<SendResult> second = producer.sendAsync(Message.of("Simple", new byte[3000]));
        // Deterministic: the first batch completes its futures before it gives back the memory the second waits for.
        assertTrue(first.isDone(), "the second sender proceeded before the first batch's caller saw its result");
        assertEquals(SendStatus.SEND_OK, second.get(10, TimeUnit.SECONDS).status());
        Await.until("batch memory given back", () -> producer.heldBatchBytes() == 0);
    }

    @Test
    void shouldRejectBadInputBeforeSendingAnything() {
        Producer producer = producer(true);
        IllegalArgumentException badTopic = assertThrows(IllegalArgumentException.class,
                () -> producer.send(Message.of("bad topic!", "x".getBytes())));
        assertTrue(badTopic.getMessage().contains("'bad topic!'"), badTopic.getMessage());
        IllegalArgumentException empty = assertThrows(IllegalArgumentException.class,
                () -> producer.send(Message.of("Simple", new byte[0])));
        assertTrue(empty.getMessage().contains("empty"), empty.getMessage());
        IllegalArgumentException big = assertThrows(IllegalArgumentException.class,
                () -> producer.send(Message.of("Simple", new byte[ProducerSettings.DEFAULT_MAX_MESSAGE_BYTES + 1])));
        assertTrue(big.getMessage().contains(String.valueOf(ProducerSettings.DEFAULT_MAX_MESSAGE_BYTES + 1)));
        assertThrows(IllegalArgumentException.class, () -> producer.send(Message.of("x".repeat(128), new byte[1])));
        assertThrows(IllegalArgumentException.class, () -> producer.send(Message.of("TBW102", new byte[1])));
        assertEquals(0, allSendRequests().size());
        assertEquals(0, cluster.routeQueries.get());
    }

    @Test
    void shouldRejectBadSettingsNamingTheValue() {
        assertMessage("batchMaxBytes must be positive, was -1", () -> builder().batchMaxBytes(-1).build());
        assertMessage("batchMaxDelayMs must be in [1, 30000], was 0", () -> builder().batchMaxDelayMs(0).build());
        assertMessage("totalBatchMaxBytes must be positive, was -5", () -> builder().totalBatchMaxBytes(-5).build());
        assertMessage("sendTimeoutMs must be positive, was 0", () -> builder().sendTimeoutMs(0).build());
        assertMessage("retryTimesWhenSendFailed must not be negative, was -1",
                () -> builder().retryTimesWhenSendFailed(-1).build());
        assertMessage("totalBatchMaxBytes 10 is smaller than batchMaxBytes 100",
                () -> builder().batchMaxBytes(100).totalBatchMaxBytes(10).build());
        assertMessage("producerGroup must be 1..255 characters of [%|a-zA-Z0-9_-], was 'a b'",
                () -> builder().producerGroup("a b").build());
        assertMessage("name server address must be host:port, was 'nowhere'", () -> ProducerSettings.builder("nowhere"));
    }

    @Test
    void shouldSayItIsClosedAfterClose() {
        Producer producer = producer(true);
        producer.close();
        ClientClosedException closed = assertThrows(ClientClosedException.class,
                () -> producer.send(Message.of("Simple", "x".getBytes())));
        assertEquals("producer is closed", closed.getMessage());
        assertThrows(ClientClosedException.class, () -> producer.sendAsync(List.of(Message.of("Simple", new byte[1]))));
    }

    @Test
    void shouldFailWithTheTopicNotExistCodeWhenNoRouteIsKnown() {
        Producer producer = producer(false);
        BrokerErrorException error = assertThrows(BrokerErrorException.class,
                () -> producer.send(Message.of("Unknown", "x".getBytes())));
        assertEquals(ResponseCode.TOPIC_NOT_EXIST, error.code());
    }

    @Test
    void shouldRefreshRoutesPeriodically() {
        Producer producer = producer(builder().connection(connection().withIntervals(50, 50)));
        producer.send(Message.of("Simple", "x".getBytes()));
        int before = cluster.routeQueries.get();
        Await.until("periodic route refreshes", () -> cluster.routeQueries.get() >= before + 3);
        Await.until("heartbeats to both brokers",
                () -> !cluster.broker(0).heartbeats.isEmpty() && !cluster.broker(1).heartbeats.isEmpty());
    }

    @Test
    void shouldSpreadSendsOverEveryQueueOfEveryBroker() {
        Producer producer = producer(false);
        Set<MessageQueue> used = new HashSet<>();
        for (int i = 0; i < 16; i++) {
            used.add(producer.send(Message.of("Simple", "x".getBytes())).queue());
        }
        assertEquals(8, used.size());
    }

    private static void assertMessage(String expected, Runnable action) {
        IllegalArgumentException error = assertThrows(IllegalArgumentException.class, action::run);
        assertEquals(expected, error.getMessage());
    }

    private List<FakeCluster.Stored> storedEverywhere() {
        List<FakeCluster.Stored> all = new ArrayList<>(cluster.broker(0).stored());
        all.addAll(cluster.broker(1).stored());
        return all;
    }

    private List<io.sluice.remoting.protocol.RemotingCommand> allSendRequests() {
        List<io.sluice.remoting.protocol.RemotingCommand> all = new ArrayList<>(cluster.broker(0).sendRequests);
        all.addAll(cluster.broker(1).sendRequests);
        return all;
    }

    private static List<SendResult> join(List<CompletableFuture<SendResult>> futures) throws Exception {
        List<SendResult> results = new ArrayList<>();
        for (CompletableFuture<SendResult> future : futures) {
            results.add(future.get(10, TimeUnit.SECONDS));
        }
        return results;
    }
}
