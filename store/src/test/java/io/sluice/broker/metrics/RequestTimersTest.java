package io.sluice.broker.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.HistogramSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import io.sluice.broker.testing.FakeConnection;
import io.sluice.remoting.protocol.RemotingCommand;
import io.sluice.remoting.protocol.RequestCode;
import io.sluice.remoting.protocol.ResponseCode;
import io.sluice.remoting.transport.RequestHandler;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Which requests the latency histograms count: sends whether answered at once or later, pulls and key lookups only
 * when answered at once (a parked pull's wait is the consumer's timeout), each under its own label, and nothing
 * at all without a metrics endpoint.
 */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class RequestTimersTest {

    private final FakeConnection connection = new FakeConnection(30_001);
    private final RemotingCommand request = RemotingCommand.request(RequestCode.SEND_MESSAGE_V2);
    private final RequestTimers timers = RequestTimers.create("C", "b");
    private final PrometheusRegistry registry = new PrometheusRegistry();

    @BeforeEach
    void register() {
        timers.registerOn(registry);
    }

    private static RequestHandler answering(CompletableFuture<RemotingCommand> response) {
        return (connection, request) -> response;
    }

    private static CompletableFuture<RemotingCommand> done() {
        return CompletableFuture.completedFuture(RemotingCommand.response(ResponseCode.SUCCESS, null));
    }

    private static long count(PrometheusRegistry registry, String metric, String request) {
        MetricSnapshots snapshots = registry.scrape();
        for (MetricSnapshot snapshot : snapshots) {
            if (!snapshot.getMetadata().getName().equals(metric)) {
                continue;
            }
            long total = 0;
            for (HistogramSnapshot.HistogramDataPointSnapshot point : ((HistogramSnapshot) snapshot).getDataPoints()) {
                String label = point.getLabels().get("request");
                if (request == null || request.equals(label)) {
                    total += point.getCount();
                }
            }
            return total;
        }
        throw new AssertionError(metric + " is not registered");
    }

    @Test
    void sendsAreTimedWhenAnsweredAtOnceAndWhenAnsweredLater() throws Exception {
        timers.timeSends(answering(done())).handle(connection, request);
        CompletableFuture<RemotingCommand> later = new CompletableFuture<>();
        CompletableFuture<RemotingCommand> returned = timers.timeSends(answering(later)).handle(connection, request);
        assertEquals(1, count(registry, "sluice_request_latency_seconds", "send"), "the later one is not done yet");
        later.complete(RemotingCommand.response(ResponseCode.SUCCESS, null));
        assertTrue(returned.isDone(), "the caller sees the handler's own response");
        assertEquals(2, count(registry, "sluice_request_latency_seconds", "send"));
        assertEquals(0, count(registry, "sluice_request_latency_seconds", "pull"));
    }

    @Test
    void aParkedPullIsNotTimedAndKeyLookupsHaveTheirOwnHistogram() throws Exception {
        timers.timePulls(answering(done())).handle(connection, request);
        CompletableFuture<RemotingCommand> parked = new CompletableFuture<>();
        timers.timePulls(answering(parked)).handle(connection, request);
        parked.complete(RemotingCommand.response(ResponseCode.PULL_NOT_FOUND, null));
        assertEquals(1, count(registry, "sluice_request_latency_seconds", "pull"));
        timers.timeKeyLookups(answering(done())).handle(connection, request);
        timers.timeKeyLookups(answering(done())).handle(connection, request);
        assertEquals(2, count(registry, "sluice_key_index_lookup_latency_seconds", null));
        assertEquals(0, count(registry, "sluice_request_latency_seconds", "send"));
    }

    @Test
    void withoutAnEndpointHandlersAreLeftAsTheyAreAndNothingIsRegistered() {
        RequestHandler handler = answering(done());
        assertSame(handler, RequestTimers.NONE.timeSends(handler));
        assertSame(handler, RequestTimers.NONE.timePulls(handler));
        assertSame(handler, RequestTimers.NONE.timeKeyLookups(handler));
        PrometheusRegistry empty = new PrometheusRegistry();
        RequestTimers.NONE.registerOn(empty);
        assertEquals(0, empty.scrape().size());
    }
}
