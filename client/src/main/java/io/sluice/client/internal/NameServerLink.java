package io.sluice.client.internal;

import io.sluice.client.BrokerErrorException;
import io.sluice.client.ClientException;
import io.sluice.remoting.protocol.RemotingCommand;
import io.sluice.remoting.protocol.RequestCode;
import io.sluice.remoting.protocol.body.BodyCodec;
import io.sluice.remoting.protocol.body.ClusterInfo;
import io.sluice.remoting.protocol.body.TopicRouteData;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * Talks to the name servers (docs/wire-protocol.md#name-server): one name server is used while it answers; on a
 * transport failure the next one in the list is tried, and becomes the one used. Thread-safe.
 */
public final class NameServerLink {
    private final Invoker invoker;
    private final List<String> addresses;
    private final long timeoutMs;
    private final AtomicInteger current;

    public NameServerLink(Invoker invoker, List<String> addresses, long timeoutMs) {
        this.invoker = invoker;
        this.addresses = List.copyOf(addresses);
        this.timeoutMs = timeoutMs;
        this.current = new AtomicInteger(ThreadLocalRandom.current().nextInt(addresses.size()));
    }

    /** The name server addresses. */
    public List<String> addresses() {
        return addresses;
    }

    /**
     * Sends a fresh request from {@code request} to the current name server, trying the others on transport
     * failures; the response may carry any code.
     */
    public CompletableFuture<RemotingCommand> call(Supplier<RemotingCommand> request) {
        CompletableFuture<RemotingCommand> result = new CompletableFuture<>();
        attempt(request, 0, current.get(), result, null);
        return result;
    }

    /** Sends {@code request} to one name server; the response may carry any code. */
    public CompletableFuture<RemotingCommand> callAt(String address, RemotingCommand request) {
        return Rpc.call(invoker, address, request, timeoutMs);
    }

    /** The route of {@code topic}; fails with a {@link BrokerErrorException} (code 17) when it has none. */
    public CompletableFuture<TopicRouteData> topicRoute(String topic) {
        return call(() -> RemotingCommand.request(RequestCode.GET_ROUTEINFO_BY_TOPIC).putExtField("topic", topic))
                .thenApply(response -> decode(response, TopicRouteData.class));
    }

    /** The brokers and clusters the name server knows. */
    public CompletableFuture<ClusterInfo> clusterInfo() {
        return call(() -> RemotingCommand.request(RequestCode.GET_BROKER_CLUSTER_INFO))
                .thenApply(response -> decode(response, ClusterInfo.class));
    }

    private <T> T decode(RemotingCommand response, Class<T> type) {
        Rpc.requireOk(response, "name server");
        if (response.body() == null) {
            throw new ClientException("name server answered " + type.getSimpleName() + " without a body");
        }
        return BodyCodec.decode(response.body(), type);
    }

    private void attempt(Supplier<RemotingCommand> request, int tried, int index,
                         CompletableFuture<RemotingCommand> result, Throwable last) {
        if (tried == addresses.size()) {
            result.completeExceptionally(new ClientException("no name server of " + addresses + " answered", last));
            return;
        }
        String address = addresses.get(index % addresses.size());
        Rpc.call(invoker, address, request.get(), timeoutMs).whenComplete((response, error) -> {
            if (error == null) {
                current.set(index % addresses.size());
                result.complete(response);
            } else {
                attempt(request, tried + 1, index + 1, result, Rpc.unwrap(error));
            }
        });
    }
}
