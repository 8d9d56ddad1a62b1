package io.sluice.client.internal;

import io.sluice.format.MessageProperties;
import io.sluice.format.UniqKeyGenerator;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.util.IllegalReferenceCountException;
import io.sluice.client.BrokerErrorException;
import io.sluice.client.ClientException;
import io.sluice.client.Message;
import io.sluice.client.SendResult;
import io.sluice.remoting.protocol.RemotingCommand;
import io.sluice.remoting.protocol.RequestCode;
import io.sluice.remoting.protocol.ResponseCode;
import io.sluice.remoting.protocol.body.BodyCodec;
import io.sluice.remoting.protocol.body.TopicConfigWire;
import io.sluice.remoting.transport.RemotingConnectException;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.BiFunction;
import org.junit.jupiter.api.Test;

class RoutedSenderTest {
    private static final UniqKeyGenerator KEYS = new UniqKeyGenerator(new byte[] {10, 0, 0, 9}, 1, 1,
            System::currentTimeMillis, ZoneId.of("UTC"));
    private static final BatchOutcome NO_OUTCOME = new BatchOutcome() {
        @Override
        public void succeeded(List<SendResult> results) {
        }

        @Override
        public void failed(Throwable error) {
        }
    };
    private final TopicRoute route = TestRoutes.route("T", 2, 2);
    private final List<String> addresses = new ArrayList<>();
    private final List<RemotingCommand> requests = new ArrayList<>();
    private boolean batchCq;

    @Test
    void shouldRetryARetryableCodeOnTheOtherBrokerAndAvoidTheFailedOneAfterwards() throws Exception {
        FailedBrokers failed = new FailedBrokers(60_000, System::nanoTime);
        RoutedSender agent = agent((address, request) -> requests.size() == 1
                ? RemotingCommand.response(ResponseCode.SYSTEM_BUSY, "busy")
                : stored("7F00000100002A9F0000000000000001", 5, null), failed);
        List<SendResult> first = send(agent, single("x"));
        assertEquals(2, addresses.size());
        assertNotEquals(addresses.get(0), addresses.get(1));
        String failedBroker = "broker-" + addresses.get(0).charAt(7);
        assertEquals(5, first.get(0).queueOffset());
        for (int i = 0; i < 6; i++) {
            send(agent, single("y"));
        }
        assertEquals(1, addresses.stream().filter(address -> address.equals(addresses.get(0))).count(),
                "isolated broker " + failedBroker + " must not be picked again");
    }

    @Test
    void shouldNotRetryANonRetryableCodeAndKeepCodeAndRemark() {
        RoutedSender agent = agent((address, request) -> RemotingCommand.response(ResponseCode.MESSAGE_ILLEGAL, "too big"),
                new FailedBrokers(0, System::nanoTime));
        BrokerErrorException error = assertInstanceOf(BrokerErrorException.class, failure(agent, single("x")));
        assertEquals(ResponseCode.MESSAGE_ILLEGAL, error.code());
        assertEquals("too big", error.remark());
        assertEquals(1, requests.size());
    }

    @Test
    void shouldGiveUpAfterAllAttemptsWithTheTransportCause() {
        RoutedSender agent = agent((address, request) -> null, new FailedBrokers(0, System::nanoTime));
        Throwable error = failure(agent, single("x"));
        assertInstanceOf(ClientException.class, error);
        assertEquals(3, requests.size());
        assertInstanceOf(ClientException.class, error.getCause());
    }

    @Test
    void shouldSplitAnUnpackedBatchIntoOneResultPerMessage() throws Exception {
        RoutedSender agent = agent((address, request) -> stored("A,B,C", 10, null), new FailedBrokers(0, System::nanoTime));
        BatchBody batch = body("1", "2", "3");
        List<SendResult> results = send(agent, SendJob.batch("T", null, batch, KEYS.next(), null, true, NO_OUTCOME));
        for (int i = 0; i < 3; i++) {
            assertEquals(batch.uniqKeys().get(i), results.get(i).msgId());
            assertEquals(String.valueOf((char) ('A' + i)), results.get(i).offsetMsgId());
            assertEquals(10 + i, results.get(i).queueOffset());
            assertNull(results.get(i).batchUniqId());
        }
        RemotingCommand request = requests.get(0);
        assertEquals(RequestCode.SEND_BATCH_MESSAGE, request.code());
        assertEquals("true", request.extField("m"));
        assertNull(MessageProperties.parse(request.extField("i")).get("UNIQ_KEY"),
                "no batch UNIQ_KEY to a SimpleCQ topic, where old brokers would copy it into every message");
        assertReleased(batch);
    }

    @Test
    void shouldGiveInnerBatchMessagesTheBaseOffsetPlusTheirIndex() throws Exception {
        batchCq = true;
        RoutedSender agent = agent((address, request) -> stored("R", 40, "BATCH-ID"), new FailedBrokers(0, System::nanoTime));
        List<SendResult> results = send(agent, SendJob.batch("T", null, body("1", "2"), "BATCH-ID", "tag", true,
                NO_OUTCOME));
        assertEquals(40, results.get(0).queueOffset());
        assertEquals(41, results.get(1).queueOffset());
        assertEquals("R", results.get(1).offsetMsgId());
        assertEquals("BATCH-ID", results.get(1).batchUniqId());
        assertEquals("tag", MessageProperties.parse(requests.get(0).extField("i")).get("TAGS"));
        assertEquals("BATCH-ID", MessageProperties.parse(requests.get(0).extField("i")).get("UNIQ_KEY"));
    }

    @Test
    void shouldFailEveryMessageWhenTheIdCountDoesNotMatch() {
        RoutedSender agent = agent((address, request) -> stored("A,B", 0, null), new FailedBrokers(0, System::nanoTime));
        BatchBody batch = body("1", "2", "3");
        Throwable error = failure(agent, SendJob.batch("T", null, batch, KEYS.next(), null, true, NO_OUTCOME));
        assertTrue(error.getMessage().endsWith("2 message ids for a batch of 3"), error.getMessage());
        assertEquals(1, requests.size(), "a malformed answer is not retried");
        assertReleased(batch);
    }

    @Test
    void shouldLeaveAnEmptyBatchBodyToItsCallerAndRefuseABatchOneway() {
        BatchBody empty = BatchBody.allocate(ByteBufAllocator.DEFAULT, 64, 1, 1 << 20);
        assertThrows(IllegalArgumentException.class,
                () -> SendJob.batch("T", null, empty, KEYS.next(), null, true, NO_OUTCOME));
        ByteBuf still = empty.retainedBytes(); // throws if the refused job had released it
        still.release();
        empty.release();

        RoutedSender agent = agent((address, request) -> stored("A", 0, null), new FailedBrokers(0, System::nanoTime));
        BatchBody batch = body("1");
        SendJob job = SendJob.batch("T", null, batch, KEYS.next(), null, true, NO_OUTCOME);
        IllegalArgumentException oneway = assertThrows(IllegalArgumentException.class, () -> agent.sendOneway(job));
        assertTrue(oneway.getMessage().contains("oneway"), oneway.getMessage());
        job.failed(oneway);
        assertReleased(batch);
    }

    /** Every reference to the batch's bytes is gone: the job's own and each request's. */
    private static void assertReleased(BatchBody batch) {
        assertThrows(IllegalReferenceCountException.class, batch::retainedBytes);
    }

    /** A null response from {@code broker} stands for a refused connection. */
    private RoutedSender agent(BiFunction<String, RemotingCommand, RemotingCommand> broker, FailedBrokers failed) {
        Invoker invoker = new Invoker() {
            @Override
            public CompletableFuture<RemotingCommand> invoke(String address, RemotingCommand request, long timeoutMs) {
                if (request.code() == RequestCode.GET_TOPIC_CONFIG) {
                    return CompletableFuture.completedFuture(RemotingCommand.response(ResponseCode.SUCCESS, null)
                            .setBody(BodyCodec.encode(new TopicConfigWire("T", 2, 2, 6, null, 0, false,
                                    Map.of("queue.type", batchCq ? "BatchCQ" : "SimpleCQ")))));
                }
                addresses.add(address);
                requests.add(request);
                RemotingCommand response = broker.apply(address, request);
                request.releaseBody(); // as a transport does once it has written the request
                return response != null ? CompletableFuture.completedFuture(response)
                        : CompletableFuture.failedFuture(new RemotingConnectException("refused", null));
            }

            @Override
            public CompletableFuture<Void> invokeOneway(String address, RemotingCommand request) {
                return CompletableFuture.completedFuture(null);
            }
        };
        return new RoutedSender(invoker, topic -> CompletableFuture.completedFuture(route), failed, "g", 3000, 2, 4);
    }

    private static RemotingCommand stored(String msgIds, long offset, String batchUniqId) {
        RemotingCommand response = RemotingCommand.response(ResponseCode.SUCCESS, null).putExtField("msgId", msgIds)
                .putExtField("queueId", 1).putExtField("queueOffset", offset);
        return batchUniqId == null ? response : response.putExtField("batchUniqId", batchUniqId);
    }

    private static EncodedMessage encoded(String body) {
        return BatchEntryWriter.encode(Message.of("T", body.getBytes()), KEYS);
    }

    private static BatchBody body(String... bodies) {
        BatchBody batch = BatchBody.allocate(ByteBufAllocator.DEFAULT, 64, 1, 1 << 20);
        for (String body : bodies) {
            Message message = Message.of("T", body.getBytes());
            batch.append(message, BatchEntryWriter.propertiesBytes(message, KEYS.keyChars()), KEYS);
        }
        return batch;
    }

    private static SendJob single(String body) {
        return SendJob.single(encoded(body), null, NO_OUTCOME);
    }

    private static List<SendResult> send(RoutedSender agent, SendJob template) throws Exception {
        CompletableFuture<List<SendResult>> result = new CompletableFuture<>();
        agent.send(withOutcome(template, result));
        return result.get(10, TimeUnit.SECONDS);
    }

    private static Throwable failure(RoutedSender agent, SendJob template) {
        CompletableFuture<List<SendResult>> result = new CompletableFuture<>();
        agent.send(withOutcome(template, result));
        try {
            result.get(10, TimeUnit.SECONDS);
            throw new AssertionError("send succeeded");
        } catch (ExecutionException e) {
            return e.getCause();
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    private static SendJob withOutcome(SendJob template, CompletableFuture<List<SendResult>> result) {
        return template.withOutcome(new BatchOutcome() {
            @Override
            public void succeeded(List<SendResult> results) {
                result.complete(results);
            }

            @Override
            public void failed(Throwable error) {
                result.completeExceptionally(error);
            }
        });
    }
}
