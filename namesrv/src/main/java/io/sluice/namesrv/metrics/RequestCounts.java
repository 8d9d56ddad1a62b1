package io.sluice.namesrv.metrics;

import io.sluice.remoting.transport.RequestHandler;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * Requests received per request code, for the metrics: each handler registered through {@link #counted} adds one
 * per request it is given. Codes are added at registration only, so counting a request is a map read and an
 * adder increment. Thread-safe.
 */
public final class RequestCounts {

    private final Map<Integer, LongAdder> byCode = new ConcurrentHashMap<>();

    /** {@code handler}, counting each request it handles under {@code code}. */
    public RequestHandler counted(int code, RequestHandler handler) {
        LongAdder count = byCode.computeIfAbsent(code, c -> new LongAdder());
        return (connection, request) -> {
            count.increment();
            return handler.handle(connection, request);
        };
    }

    /** The counts so far by code, sorted; codes never requested count 0. */
    public Map<Integer, Long> snapshot() {
        Map<Integer, Long> counts = new TreeMap<>();
        byCode.forEach((code, count) -> counts.put(code, count.sum()));
        return counts;
    }
}
