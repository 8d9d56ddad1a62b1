package io.sluice.client.internal;

import io.sluice.client.BrokerErrorException;
import io.sluice.client.ClientException;
import io.sluice.remoting.protocol.ResponseCode;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Routes of the topics in use, fetched from the name servers on first use and refreshed by {@link #refreshAll()}
 * (every {@code routeRefreshIntervalMs}, driven by the client's timer). A refresh that fails keeps the previous
 * route. For producers, a topic the name server does not know gets a provisional route built from {@code TBW102}
 * (docs/wire-protocol.md#missing-routes) until its own route appears.
 *
 * <p>Thread-safe: the cache maps a topic to the future of its current route; a fetch in progress is shared by
 * every caller that asks meanwhile.
 */
public final class RouteCache implements RouteSource {
    private static final Logger LOG = LoggerFactory.getLogger(RouteCache.class);

    private final NameServerLink namesrv;
    private final boolean defaultTopicFallback;
    private final int defaultTopicQueueNums;
    private final ConcurrentHashMap<String, CompletableFuture<TopicRoute>> routes = new ConcurrentHashMap<>();

    /**
     * @param namesrv the name servers
     * @param defaultTopicFallback build routes from {@code TBW102} for unknown topics (producers)
     * @param defaultTopicQueueNums queues per broker of such a route
     */
    public RouteCache(NameServerLink namesrv, boolean defaultTopicFallback, int defaultTopicQueueNums) {
        this.namesrv = namesrv;
        this.defaultTopicFallback = defaultTopicFallback;
        this.defaultTopicQueueNums = defaultTopicQueueNums;
    }

    @Override
    public CompletableFuture<TopicRoute> publishRoute(String topic) {
        CompletableFuture<TopicRoute> cached = routes.get(topic);
        if (cached != null && !cached.isCompletedExceptionally()) {
            return cached;
        }
        return fetchInto(topic, cached);
    }

    /** The cached route of {@code topic}, or null. */
    public TopicRoute cached(String topic) {
        CompletableFuture<TopicRoute> cached = routes.get(topic);
        return cached != null && cached.isDone() && !cached.isCompletedExceptionally() ? cached.join() : null;
    }

    /** Fetches {@code topic}'s route now and caches it; the previous route stays if the fetch fails. */
    public CompletableFuture<TopicRoute> refresh(String topic) {
        return fetch(topic).whenComplete((route, error) -> {
            if (error == null) {
                routes.put(topic, CompletableFuture.completedFuture(route));
            }
        });
    }

    /** Refreshes every cached topic; failures are logged and keep the old routes. */
    public void refreshAll() {
        for (String topic : new ArrayList<>(routes.keySet())) {
            refresh(topic).whenComplete((route, error) -> {
                if (error != null) {
                    LOG.debug("route refresh of {} failed: {}", topic, Rpc.unwrap(error).getMessage());
                }
            });
        }
    }

    /** Forgets {@code topic}. */
    public void forget(String topic) {
        routes.remove(topic);
    }

    /** The topics with a cached route. */
    public Set<String> topics() {
        return Set.copyOf(routes.keySet());
    }

    /** Every broker address named by a cached route. */
    public Set<String> brokerAddresses() {
        Set<String> addresses = new LinkedHashSet<>();
        for (CompletableFuture<TopicRoute> future : routes.values()) {
            if (future.isDone() && !future.isCompletedExceptionally()) {
                addresses.addAll(future.join().allAddresses());
            }
        }
        return addresses;
    }

    /** Every cached route. */
    public List<TopicRoute> all() {
        List<TopicRoute> all = new ArrayList<>();
        for (CompletableFuture<TopicRoute> future : routes.values()) {
            if (future.isDone() && !future.isCompletedExceptionally()) {
                all.add(future.join());
            }
        }
        return all;
    }

    private CompletableFuture<TopicRoute> fetchInto(String topic, CompletableFuture<TopicRoute> failed) {
        CompletableFuture<TopicRoute> fetching = new CompletableFuture<>();
        boolean mine = failed == null ? routes.putIfAbsent(topic, fetching) == null
                : routes.replace(topic, failed, fetching);
        if (!mine) {
            CompletableFuture<TopicRoute> other = routes.get(topic);
            return other != null ? other : fetchInto(topic, null);
        }
        fetch(topic).whenComplete((route, error) -> {
            if (error != null) {
                fetching.completeExceptionally(Rpc.unwrap(error));
                routes.remove(topic, fetching);
            } else {
                fetching.complete(route);
            }
        });
        return fetching;
    }

    private CompletableFuture<TopicRoute> fetch(String topic) {
        CompletableFuture<TopicRoute> own = namesrv.topicRoute(topic).thenApply(data -> TopicRoute.of(topic, data));
        if (!defaultTopicFallback) {
            return own.exceptionally(error -> {
                throw noRoute(topic, error);
            });
        }
        return own.exceptionallyCompose(error -> {
            Throwable cause = Rpc.unwrap(error);
            if (cause instanceof BrokerErrorException broker && broker.code() == ResponseCode.TOPIC_NOT_EXIST) {
                return namesrv.topicRoute(RoutedSender.DEFAULT_TOPIC)
                        .thenApply(data -> TopicRoute.fromDefaultTopic(topic, data, defaultTopicQueueNums))
                        .exceptionally(fallbackError -> {
                            throw noRoute(topic, cause);
                        });
            }
            return CompletableFuture.failedFuture(noRoute(topic, cause));
        });
    }

    private static ClientException noRoute(String topic, Throwable error) {
        Throwable cause = Rpc.unwrap(error);
        if (cause instanceof BrokerErrorException broker) {
            return new BrokerErrorException(broker.code(), "no route info of topic " + topic + ": " + broker.remark(),
                    broker.address());
        }
        if (cause instanceof ClientException client) {
            return client;
        }
        return new ClientException("no route info of topic " + topic, cause);
    }
}
