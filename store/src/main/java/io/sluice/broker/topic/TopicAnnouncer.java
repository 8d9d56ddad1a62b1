package io.sluice.broker.topic;

import io.sluice.broker.meta.TableVersion;
import io.sluice.broker.meta.TopicConfig;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Tells the name servers about topics that were just created or changed (an incremental REGISTER_BROKER), so that
 * their routes exist before the creation is acknowledged to the client.
 *
 * <p>Implementations are thread-safe.
 */
@FunctionalInterface
public interface TopicAnnouncer {

    /** An announcer for a broker without name servers: completes at once. */
    TopicAnnouncer NONE = (topics, version) -> CompletableFuture.completedFuture(null);

    /**
     * Announces {@code topics} with the topic table's {@code version} after the change.
     *
     * @return completes (never exceptionally) once every name server answered or the attempt timed out; failures
     *     are logged by the implementation, the periodic full registration repairs them
     */
    CompletableFuture<Void> announce(List<TopicConfig> topics, TableVersion version);
}
