package io.sluice.client.internal;

import java.util.concurrent.CompletableFuture;

/** Gives the route a send should use for a topic. Implementations must be thread-safe. */
@FunctionalInterface
public interface RouteSource {

    /**
     * The route of {@code topic}, from a cache when it has one; fails with
     * {@link io.sluice.client.ClientException} when there is no route.
     */
    CompletableFuture<TopicRoute> publishRoute(String topic);
}
