package io.sluice.broker.meta;

import java.util.ArrayDeque;
import java.util.Deque;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The native handles of a RocksDB database (options, database, column-family handles, write options), released in
 * reverse order of creation: a handle is never released before what was created after it, which may use it.
 *
 * <p>Not thread-safe: filled while opening, closed once by the owner after its last use of the database.
 */
public final class NativeResources implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(NativeResources.class);

    private final Deque<AutoCloseable> resources = new ArrayDeque<>();

    /** Adds {@code resource}, released before everything added earlier; returns it. */
    public <T extends AutoCloseable> T add(T resource) {
        resources.push(resource);
        return resource;
    }

    /** Releases every resource, newest first; a failure is logged and the rest are still released. Idempotent. */
    @Override
    public void close() {
        while (!resources.isEmpty()) {
            AutoCloseable resource = resources.pop();
            try {
                resource.close();
            } catch (Exception e) {
                LOG.error("closing {} failed", resource.getClass().getSimpleName(), e);
            }
        }
    }
}
