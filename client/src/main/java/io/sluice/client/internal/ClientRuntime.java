package io.sluice.client.internal;

import io.sluice.format.UniqKeyGenerator;
import io.sluice.client.ConnectionSettings;
import io.sluice.remoting.protocol.RemotingCommand;
import io.sluice.remoting.protocol.RequestCode;
import io.sluice.remoting.protocol.body.BodyCodec;
import io.sluice.remoting.protocol.body.HeartbeatData;
import io.sluice.remoting.transport.ClientSettings;
import io.sluice.remoting.transport.RemotingClient;
import io.sluice.remoting.transport.RequestHandler;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What one producer, consumer or admin client runs on: the connections ({@link RemotingClient}), one timer
 * thread, the name servers, the route cache, the client id and the UNIQ_KEY generator; plus the periodic route
 * refresh and heartbeat.
 *
 * <p>Thread-safe. Owned by the producer, consumer or admin object that created it, which closes it.
 */
public final class ClientRuntime implements Invoker, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ClientRuntime.class);

    private final ConnectionSettings settings;
    private final String clientId;
    private final RemotingClient remoting;
    private final ScheduledExecutorService timer;
    private final NameServerLink namesrv;
    private final RouteCache routes;
    private final UniqKeyGenerator uniqKeys;
    private final List<ScheduledFuture<?>> tasks = new ArrayList<>();
    private volatile Supplier<HeartbeatData> heartbeat;
    private volatile boolean closed;

    /**
     * @param settings how to reach the cluster
     * @param role names the timer thread, e.g. {@code producer}
     * @param clientIdSuffix appended to the client id (e.g. {@code @STREAM}), or empty
     * @param defaultTopicFallback whether unknown topics get routes from {@code TBW102} (producers)
     * @param defaultTopicQueueNums queues per broker of such routes
     */
    public ClientRuntime(ConnectionSettings settings, String role, String clientIdSuffix,
                         boolean defaultTopicFallback, int defaultTopicQueueNums) {
        this.settings = settings;
        this.clientId = settings.clientIp() + "@" + settings.instanceName() + clientIdSuffix;
        this.remoting = new RemotingClient(ClientSettings.defaults().withTls(settings.tls())
                .withCredentials(settings.credentials()));
        this.timer = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "sluice-" + role + "-timer-" + settings.instanceName());
            thread.setDaemon(true);
            return thread;
        });
        this.namesrv = new NameServerLink(this, settings.namesrvAddresses(), settings.rpcTimeoutMs());
        this.routes = new RouteCache(namesrv, defaultTopicFallback, defaultTopicQueueNums);
        this.uniqKeys = UniqKeyGenerator.forProcess(LocalAddress.bytesOf(settings.clientIp()));
    }

    /** Starts the periodic route refresh, and the heartbeat if {@code heartbeatSource} is not null. */
    public synchronized void start(Supplier<HeartbeatData> heartbeatSource) {
        this.heartbeat = heartbeatSource;
        long refreshMs = settings.routeRefreshIntervalMs();
        tasks.add(timer.scheduleWithFixedDelay(guard("route refresh", routes::refreshAll), refreshMs, refreshMs,
                TimeUnit.MILLISECONDS));
        if (heartbeatSource != null) {
            long heartbeatMs = settings.heartbeatIntervalMs();
            tasks.add(timer.scheduleWithFixedDelay(guard("heartbeat", this::heartbeatAll), heartbeatMs, heartbeatMs,
                    TimeUnit.MILLISECONDS));
        }
    }

    public ConnectionSettings settings() {
        return settings;
    }

    /** {@code <ip>@<instanceName>[suffix]}. */
    public String clientId() {
        return clientId;
    }

    public RemotingClient remoting() {
        return remoting;
    }

    /** The single timer thread; tasks must be short and must not block. */
    public ScheduledExecutorService timer() {
        return timer;
    }

    public NameServerLink namesrv() {
        return namesrv;
    }

    public RouteCache routes() {
        return routes;
    }

    public UniqKeyGenerator uniqKeys() {
        return uniqKeys;
    }

    public boolean isClosed() {
        return closed;
    }

    /** Runs {@code handler} for server-to-client requests with {@code code}. */
    public void registerHandler(int code, RequestHandler handler) {
        remoting.registerHandler(code, handler);
    }

    @Override
    public CompletableFuture<RemotingCommand> invoke(String address, RemotingCommand request, long timeoutMs) {
        return remoting.invoke(address, request, timeoutMs);
    }

    @Override
    public CompletableFuture<Void> invokeOneway(String address, RemotingCommand request) {
        return remoting.invokeOneway(address, request);
    }

    /** Sends a request and requires SUCCESS, with the RPC timeout. */
    public CompletableFuture<RemotingCommand> callOk(String address, RemotingCommand request) {
        return Rpc.callOk(this, address, request, settings.rpcTimeoutMs());
    }

    /** Sends a request with the RPC timeout; the response may carry any code. */
    public CompletableFuture<RemotingCommand> call(String address, RemotingCommand request) {
        return Rpc.call(this, address, request, settings.rpcTimeoutMs());
    }

    /** Sends the current heartbeat to every broker of every cached route; completes when all have answered. */
    public CompletableFuture<Void> heartbeatAll() {
        return heartbeat(routes.brokerAddresses());
    }

    /** Sends the current heartbeat to {@code addresses}; completes when all have answered (failures logged). */
    public CompletableFuture<Void> heartbeat(Set<String> addresses) {
        Supplier<HeartbeatData> source = heartbeat;
        if (source == null || closed || addresses.isEmpty()) {
            return CompletableFuture.completedFuture(null);
        }
        byte[] body = BodyCodec.encode(source.get());
        List<CompletableFuture<?>> calls = new ArrayList<>();
        for (String address : addresses) {
            RemotingCommand request = RemotingCommand.request(RequestCode.HEART_BEAT).setExtFields(Map.of())
                    .setBody(body);
            calls.add(callOk(address, request).handle((response, error) -> {
                if (error != null) {
                    LOG.debug("heartbeat to {} failed: {}", address, Rpc.unwrap(error).getMessage());
                }
                return null;
            }));
        }
        return CompletableFuture.allOf(calls.toArray(CompletableFuture[]::new));
    }

    /**
     * Tells every broker in use that this client leaves the given groups (UNREGISTER_CLIENT, one request per
     * group and broker), waiting up to the RPC timeout.
     */
    public void unregister(List<String> producerGroups, List<String> consumerGroups) {
        List<CompletableFuture<?>> calls = new ArrayList<>();
        for (String address : routes.brokerAddresses()) {
            for (String group : producerGroups) {
                calls.add(call(address, RemotingCommand.request(RequestCode.UNREGISTER_CLIENT)
                        .putExtField("clientID", clientId).putExtField("producerGroup", group)));
            }
            for (String group : consumerGroups) {
                calls.add(call(address, RemotingCommand.request(RequestCode.UNREGISTER_CLIENT)
                        .putExtField("clientID", clientId).putExtField("consumerGroup", group)));
            }
        }
        try {
            CompletableFuture.allOf(calls.toArray(CompletableFuture[]::new))
                    .get(settings.rpcTimeoutMs(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException e) {
            LOG.debug("unregistering {} did not complete: {}", clientId, e.toString());
        }
    }

    /** Stops the timer and closes every connection (outstanding calls fail). Idempotent. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        tasks.forEach(task -> task.cancel(false));
        timer.shutdownNow();
        remoting.close();
    }

    /** Wraps a periodic task so that one failure is logged and does not cancel later runs. */
    public static Runnable guard(String what, Runnable task) {
        return () -> {
            try {
                task.run();
            } catch (RuntimeException e) {
                LOG.warn("{} failed: {}", what, e.toString());
            }
        };
    }
}
