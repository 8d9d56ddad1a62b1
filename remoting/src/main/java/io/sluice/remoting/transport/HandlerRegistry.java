package io.sluice.remoting.transport;

import io.sluice.remoting.protocol.RemotingCommand;
import io.sluice.remoting.protocol.ResponseCode;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Request handlers by request code, plus the default for unregistered codes (REQUEST_CODE_NOT_SUPPORTED unless
 * the owner sets one). Thread-safe: registrations may happen at any time and are visible to later requests.
 */
final class HandlerRegistry {
    /** A handler and how to run it. */
    record Registration(RequestHandler handler, HandlerOptions options) {
    }

    private final ConcurrentHashMap<Integer, Registration> byCode = new ConcurrentHashMap<>();
    private volatile Registration fallback;

    HandlerRegistry(RemotingCounters counters) {
        this.fallback = new Registration((connection, request) -> {
            counters.requestsNotSupported.incrementAndGet();
            return CompletableFuture.completedFuture(notSupported(request));
        }, HandlerOptions.LANE);
    }

    void register(int code, RequestHandler handler, HandlerOptions options) {
        byCode.put(code, new Registration(Objects.requireNonNull(handler, "handler"),
                Objects.requireNonNull(options, "options")));
    }

    void registerDefault(RequestHandler handler, HandlerOptions options) {
        fallback = new Registration(Objects.requireNonNull(handler, "handler"),
                Objects.requireNonNull(options, "options"));
    }

    /** The registration for {@code code}, or the default; never null. */
    Registration lookup(int code) {
        Registration registration = byCode.get(code);
        return registration != null ? registration : fallback;
    }

    /** Apache's answer to an unknown code, remark included (docs/wire-protocol.md#codes-refused). */
    static RemotingCommand notSupported(RemotingCommand request) {
        return RemotingCommand.responseTo(request, ResponseCode.REQUEST_CODE_NOT_SUPPORTED,
                " request type " + request.code() + " not supported");
    }
}
