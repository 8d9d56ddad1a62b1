package io.sluice.remoting.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.util.concurrent.EventExecutor;
import io.sluice.remoting.protocol.RemotingCommand;
import io.sluice.remoting.protocol.ResponseCode;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Connections are pinned to lanes round robin and a lane runs its tasks in submission order, finishing what is
 * queued when it shuts down; handlers are found by request code, an unknown code getting Apache's refusal.
 */
@Timeout(30)
class LanesTest {

    @Test
    void connectionsArePinnedRoundRobin() {
        Lanes lanes = new Lanes("sluice-test-lane", 3);
        try {
            EventExecutor first = lanes.pin();
            EventExecutor second = lanes.pin();
            EventExecutor third = lanes.pin();
            assertNotSame(first, second);
            assertNotSame(second, third);
            assertNotSame(first, third);
            assertSame(first, lanes.pin(), "the fourth connection shares the first lane");
            assertSame(second, lanes.pin());
        } finally {
            lanes.shutdown(5_000);
        }
    }

    @Test
    void aLaneRunsItsTasksInOrderAndFinishesTheQueueOnShutdown() throws InterruptedException {
        Lanes lanes = new Lanes("sluice-test-lane", 2);
        EventExecutor lane = lanes.pin();
        List<Integer> ran = Collections.synchronizedList(new ArrayList<>());
        CountDownLatch gate = new CountDownLatch(1);
        lane.execute(() -> {
            try {
                gate.await(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        for (int i = 0; i < 1_000; i++) {
            int task = i;
            lane.execute(() -> ran.add(task));
        }
        gate.countDown();
        lanes.shutdown(10_000);
        assertEquals(1_000, ran.size(), "every queued task ran before the lane stopped");
        for (int i = 0; i < ran.size(); i++) {
            assertEquals(i, ran.get(i));
        }
        assertTrue(lane.isTerminated());
    }

    @Test
    void handlersAreFoundByCodeAndUnknownCodesAreRefused() throws Exception {
        RemotingCounters counters = new RemotingCounters();
        HandlerRegistry registry = new HandlerRegistry(counters);
        RequestHandler answer = (connection, request) -> CompletableFuture.completedFuture(
                RemotingCommand.responseTo(request));
        registry.register(10, answer, HandlerOptions.LANE);
        assertSame(answer, registry.lookup(10).handler());
        assertSame(HandlerOptions.LANE, registry.lookup(10).options());

        RemotingCommand unknown = RemotingCommand.request(4242);
        RemotingCommand refused = registry.lookup(4242).handler().handle(null, unknown).join();
        assertEquals(ResponseCode.REQUEST_CODE_NOT_SUPPORTED, refused.code());
        assertEquals(" request type 4242 not supported", refused.remark(), "Apache's remark, leading space included");
        assertEquals(1, counters.requestsNotSupported.get());

        registry.registerDefault(answer, HandlerOptions.LANE);
        assertSame(answer, registry.lookup(4242).handler(), "the owner's default replaces the refusal");
    }
}
