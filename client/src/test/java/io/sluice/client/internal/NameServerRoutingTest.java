package io.sluice.client.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.client.BrokerErrorException;
import io.sluice.client.ClientException;
import io.sluice.remoting.protocol.RemotingCommand;
import io.sluice.remoting.protocol.RequestCode;
import io.sluice.remoting.protocol.ResponseCode;
import io.sluice.remoting.protocol.body.BodyCodec;
import io.sluice.remoting.protocol.body.TopicRouteData;
import io.sluice.remoting.transport.RemotingConnectException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.BiFunction;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * How the client finds routes: the name-server link fails over on transport errors only and sticks to the server
 * that answered; the route cache shares one fetch among concurrent callers, forgets a failed fetch, keeps the old
 * route when a refresh fails, and builds a provisional route from TBW102 for producers only.
 */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class NameServerRoutingTest {

    private static final List<String> SERVERS = List.of("ns-0:9876", "ns-1:9876", "ns-2:9876");

    /** Calls in order, as address and request code. */
    private final List<String> calls = new ArrayList<>();
    private BiFunction<String, RemotingCommand, CompletableFuture<RemotingCommand>> answer;

    private final Invoker invoker = new Invoker() {
        @Override
        public synchronized CompletableFuture<RemotingCommand> invoke(String address, RemotingCommand request,
                                                                     long timeoutMs) {
            calls.add(address + " " + request.code() + " " + request.extField("topic"));
            return answer.apply(address, request);
        }

        @Override
        public CompletableFuture<Void> invokeOneway(String address, RemotingCommand request) {
            throw new AssertionError("no oneway requests expected");
        }
    };

    private static CompletableFuture<RemotingCommand> unreachable(String address) {
        return CompletableFuture.failedFuture(new RemotingConnectException("connect to " + address + " refused", null));
    }

    private static CompletableFuture<RemotingCommand> route(int queues, String... brokers) {
        TopicRouteData data = TestRoutes.route("any", brokers.length, queues).data();
        return CompletableFuture.completedFuture(RemotingCommand.response(ResponseCode.SUCCESS, null)
                .setBody(BodyCodec.encode(data)));
    }

    private static CompletableFuture<RemotingCommand> noTopic() {
        return CompletableFuture.completedFuture(RemotingCommand.response(ResponseCode.TOPIC_NOT_EXIST,
                "No topic route info in name server for the topic"));
    }

    private static Throwable failure(CompletableFuture<?> future) {
        ExecutionException e = assertThrows(ExecutionException.class,
                () -> future.get(5, TimeUnit.SECONDS));
        return e.getCause();
    }

    @Test
    void aTransportFailureMovesToTheNextServerWhichIsThenUsedFirst() throws Exception {
        answer = (address, request) -> address.equals("ns-2:9876") ? route(4, "b0") : unreachable(address);
        NameServerLink link = new NameServerLink(invoker, SERVERS, 1_000);
        assertEquals(1, link.topicRoute("T").get(5, TimeUnit.SECONDS).brokerDatas().size());
        assertEquals("ns-2:9876", calls.get(calls.size() - 1).split(" ")[0]);
        assertTrue(calls.size() <= 3, calls.toString());
        calls.clear();
        link.topicRoute("T").get(5, TimeUnit.SECONDS);
        assertEquals(List.of("ns-2:9876 " + RequestCode.GET_ROUTEINFO_BY_TOPIC + " T"), calls,
                "the server that answered is asked first");
    }

    @Test
    void whenNoServerAnswersTheErrorNamesThemAllAndKeepsTheLastCause() {
        answer = (address, request) -> unreachable(address);
        NameServerLink link = new NameServerLink(invoker, SERVERS, 1_000);
        Throwable error = failure(link.topicRoute("T"));
        assertInstanceOf(ClientException.class, error);
        assertEquals("no name server of " + SERVERS + " answered", error.getMessage());
        assertTrue(error.getCause().getMessage().contains("refused"), error.getCause().getMessage());
        assertEquals(3, calls.size(), "each server was tried once: " + calls);
        assertEquals(Set.copyOf(SERVERS), Set.copyOf(calls.stream().map(c -> c.split(" ")[0]).toList()));
    }

    @Test
    void anErrorAnswerIsNotAFailoverButTheBrokersCode() {
        answer = (address, request) -> noTopic();
        NameServerLink link = new NameServerLink(invoker, SERVERS, 1_000);
        BrokerErrorException error = assertInstanceOf(BrokerErrorException.class, failure(link.topicRoute("T")));
        assertEquals(ResponseCode.TOPIC_NOT_EXIST, error.code());
        assertEquals(1, calls.size(), "one server asked: " + calls);
    }

    @Test
    void aSuccessWithoutABodyIsRefused() {
        answer = (address, request) -> CompletableFuture.completedFuture(
                RemotingCommand.response(ResponseCode.SUCCESS, null));
        Throwable error = failure(new NameServerLink(invoker, SERVERS, 1_000).clusterInfo());
        assertEquals("name server answered ClusterInfo without a body", error.getMessage());
    }

    @Test
    void concurrentCallersShareOneFetchAndAFailedFetchIsForgotten() throws Exception {
        CompletableFuture<RemotingCommand> pending = new CompletableFuture<>();
        answer = (address, request) -> pending;
        RouteCache cache = new RouteCache(new NameServerLink(invoker, List.of("ns:1"), 1_000), false, 4);
        CompletableFuture<TopicRoute> first = cache.publishRoute("T");
        CompletableFuture<TopicRoute> second = cache.publishRoute("T");
        assertSame(first, second);
        assertNull(cache.cached("T"), "nothing cached while the fetch runs");
        assertEquals(1, calls.size());
        pending.complete(noTopic().join());
        BrokerErrorException error = assertInstanceOf(BrokerErrorException.class, failure(first));
        assertEquals(ResponseCode.TOPIC_NOT_EXIST, error.code());
        assertTrue(error.getMessage().contains("no route info of topic T"), error.getMessage());
        assertTrue(cache.topics().isEmpty(), "a failed fetch is not cached");

        answer = (address, request) -> route(2, "b0", "b1");
        TopicRoute route = cache.publishRoute("T").get(5, TimeUnit.SECONDS);
        assertEquals(4, route.publishQueues().size());
        assertFalse(route.fromDefaultTopic());
        assertEquals(2, calls.size(), "the next caller fetched again");
        assertSame(route, cache.cached("T"));
        assertEquals(Set.of(TestRoutes.address(0), TestRoutes.address(1)), cache.brokerAddresses());
    }

    @Test
    void aFailedRefreshKeepsTheRouteAndASuccessfulOneReplacesIt() throws Exception {
        answer = (address, request) -> route(2, "b0");
        RouteCache cache = new RouteCache(new NameServerLink(invoker, List.of("ns:1"), 1_000), false, 4);
        TopicRoute before = cache.publishRoute("T").get(5, TimeUnit.SECONDS);
        answer = (address, request) -> unreachable(address);
        failure(cache.refresh("T"));
        assertSame(before, cache.cached("T"));
        cache.refreshAll();
        assertSame(before, cache.cached("T"));

        answer = (address, request) -> route(3, "b0", "b1");
        cache.refresh("T").get(5, TimeUnit.SECONDS);
        assertEquals(6, cache.cached("T").publishQueues().size());
        assertEquals(1, cache.all().size());
        cache.forget("T");
        assertNull(cache.cached("T"));
        assertTrue(cache.all().isEmpty() && cache.brokerAddresses().isEmpty());
    }

    @Test
    void aProducerGetsAProvisionalRouteFromTheTemplateTopicCappedAtItsQueueCount() throws Exception {
        Map<String, Integer> asked = new HashMap<>();
        answer = (address, request) -> {
            String topic = request.extField("topic");
            asked.merge(topic, 1, Integer::sum);
            return topic.equals(RoutedSender.DEFAULT_TOPIC) ? route(8, "b0", "b1") : noTopic();
        };
        RouteCache producer = new RouteCache(new NameServerLink(invoker, List.of("ns:1"), 1_000), true, 3);
        TopicRoute provisional = producer.publishRoute("NEW").get(5, TimeUnit.SECONDS);
        assertTrue(provisional.fromDefaultTopic());
        assertEquals("NEW", provisional.topic());
        assertEquals(6, provisional.publishQueues().size(), "3 queues on each of 2 brokers");
        assertTrue(provisional.publishQueues().stream().allMatch(q -> q.topic().equals("NEW") && q.queueId() < 3));
        assertEquals(Map.of("NEW", 1, RoutedSender.DEFAULT_TOPIC, 1), asked);

        RouteCache consumer = new RouteCache(new NameServerLink(invoker, List.of("ns:1"), 1_000), false, 3);
        BrokerErrorException error = assertInstanceOf(BrokerErrorException.class,
                failure(consumer.publishRoute("NEW")));
        assertEquals(ResponseCode.TOPIC_NOT_EXIST, error.code());
    }

    @Test
    void withoutATemplateTopicEitherTheProducerSeesTheTopicsOwnError() {
        answer = (address, request) -> noTopic();
        RouteCache producer = new RouteCache(new NameServerLink(invoker, List.of("ns:1"), 1_000), true, 3);
        BrokerErrorException error = assertInstanceOf(BrokerErrorException.class,
                failure(producer.publishRoute("NEW")));
        assertEquals(ResponseCode.TOPIC_NOT_EXIST, error.code());
        assertTrue(error.getMessage().contains("no route info of topic NEW"), error.getMessage());
    }
}
