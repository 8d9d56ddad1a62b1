package io.sluice.client.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.remoting.protocol.RemotingCommand;
import io.sluice.remoting.protocol.RequestCode;
import io.sluice.remoting.protocol.ResponseCode;
import io.sluice.remoting.protocol.body.BodyCodec;
import io.sluice.remoting.protocol.body.TopicConfigWire;
import io.sluice.remoting.transport.RemotingConnectException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * How the producer learns a topic's queue type: asked once per topic and cached when the broker answers; any
 * doubt (transport failure, an error code, no or a malformed body) counts as BatchCQ and is asked again next time.
 */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class TopicKindsTest {

    private final List<String> asked = new ArrayList<>();
    private Supplier<CompletableFuture<RemotingCommand>> answer;

    private final Invoker invoker = new Invoker() {
        @Override
        public CompletableFuture<RemotingCommand> invoke(String address, RemotingCommand request, long timeoutMs) {
            assertEquals(RequestCode.GET_TOPIC_CONFIG, request.code());
            asked.add(address + " " + request.extField("topic"));
            return answer.get();
        }

        @Override
        public CompletableFuture<Void> invokeOneway(String address, RemotingCommand request) {
            throw new AssertionError("no oneway requests expected");
        }
    };

    private final TopicKinds kinds = new TopicKinds(invoker, 1_000);

    private static CompletableFuture<RemotingCommand> config(String queueType) {
        TopicConfigWire wire = TopicConfigWire.of("T", 4, 6);
        TopicConfigWire typed = queueType == null ? wire : new TopicConfigWire(wire.topicName(),
                wire.readQueueNums(), wire.writeQueueNums(), wire.perm(), wire.topicFilterType(),
                wire.topicSysFlag(), wire.order(), Map.of("queue.type", queueType));
        return CompletableFuture.completedFuture(RemotingCommand.response(ResponseCode.SUCCESS, null)
                .setBody(BodyCodec.encode(typed)));
    }

    private boolean isBatchCq(String topic) throws Exception {
        return kinds.isBatchCq(topic, "10.0.0.1:10911").get(5, TimeUnit.SECONDS);
    }

    @Test
    void anAnswerIsAskedOnceAndKept() throws Exception {
        answer = () -> config("SimpleCQ");
        assertFalse(isBatchCq("S"));
        assertFalse(isBatchCq("S"));
        answer = () -> config("batchcq");
        assertTrue(isBatchCq("B"));
        assertTrue(isBatchCq("B"));
        answer = () -> config(null);
        assertFalse(isBatchCq("Plain"), "no queue.type attribute is a SimpleCQ topic");
        assertEquals(List.of("10.0.0.1:10911 S", "10.0.0.1:10911 B", "10.0.0.1:10911 Plain"), asked);
    }

    @Test
    void aDoubtCountsAsBatchCqAndIsAskedAgain() throws Exception {
        List<Supplier<CompletableFuture<RemotingCommand>>> doubts = List.of(
                () -> CompletableFuture.failedFuture(new RemotingConnectException("refused", null)),
                () -> CompletableFuture.completedFuture(RemotingCommand.response(ResponseCode.TOPIC_NOT_EXIST, "no")),
                () -> CompletableFuture.completedFuture(RemotingCommand.response(ResponseCode.SUCCESS, null)),
                () -> CompletableFuture.completedFuture(RemotingCommand.response(ResponseCode.SUCCESS, null)
                        .setBody("{\"readQueueNums\":\"many\"".getBytes(StandardCharsets.UTF_8))));
        for (Supplier<CompletableFuture<RemotingCommand>> doubt : doubts) {
            answer = doubt;
            assertTrue(isBatchCq("T"));
        }
        assertEquals(doubts.size(), asked.size(), "each doubt was asked again: " + asked);
        answer = () -> config("SimpleCQ");
        assertFalse(isBatchCq("T"), "the first real answer counts");
    }

    @Test
    void callersWhileTheQuestionIsOpenShareIt() throws Exception {
        CompletableFuture<RemotingCommand> open = new CompletableFuture<>();
        answer = () -> open;
        CompletableFuture<Boolean> first = kinds.isBatchCq("T", "a:1");
        CompletableFuture<Boolean> second = kinds.isBatchCq("T", "b:1");
        assertSame(first, second);
        assertEquals(1, asked.size());
        open.complete(config("SimpleCQ").join());
        assertFalse(first.get(5, TimeUnit.SECONDS));
    }
}
