package io.sluice.namesrv.controller;

import io.sluice.remoting.protocol.controller.ReplicaInfo;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Controllers on real Ratis groups on loopback: one alone, and three forming a quorum. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ControllerTest {

    @TempDir
    Path dir;

    @Test
    void aSingleControllerCommitsAndRecoversItsTableAfterARestart() throws Exception {
        ControllerSettings settings = ControllerSettings.single("127.0.0.1:" + freePort(), dir);
        try (Controller controller = new Controller(settings)) {
            controller.start();
            await(controller::isLeader, "a single controller leads");
            assertEquals(ApplyResult.ok(1), controller.propose(register("h:10")).get(10, TimeUnit.SECONDS));
            assertEquals(ApplyResult.ok(1), controller.propose(
                    new ControllerCommand.Elect("broker-a", 0, 1)).get(10, TimeUnit.SECONDS));
        }
        try (Controller again = new Controller(settings)) {
            again.start();
            await(again::isLeader, "the restarted controller leads");
            ReplicaInfo info = again.replicaInfo("broker-a").orElseThrow();
            assertEquals(1, info.masterBrokerId());
            assertEquals(1, info.masterEpoch());
            assertEquals("h:10", info.masterAddress());
        }
    }

    @Test
    void threeControllersKeepTheTableWhenTheLeaderStops() throws Exception {
        Map<String, String> peers = new LinkedHashMap<>();
        for (int i = 0; i < 3; i++) {
            peers.put("n" + i, "127.0.0.1:" + freePort());
        }
        List<Controller> controllers = new ArrayList<>();
        try {
            for (String id : peers.keySet()) {
                Controller c = new Controller(new ControllerSettings(true, "g", peers, id, dir, 200));
                controllers.add(c);
                c.start();
            }
            assertEquals(ApplyResult.ok(1), proposeOnLeader(controllers, register("h:10")));
            Controller leader = awaitLeader(controllers);
            for (Controller c : controllers) {
                await(() -> c.replicaInfo("broker-a").isPresent(), "every controller applies the registration");
            }
            leader.close();
            controllers.remove(leader);
            assertEquals(ApplyResult.ok(2), proposeOnLeader(controllers, register("h:20")),
                    "the two left form a quorum and go on numbering");
            assertFalse(leader.isLeader());
        } finally {
            controllers.forEach(Controller::close);
        }
    }

    private static ControllerCommand.Register register(String address) {
        return new ControllerCommand.Register("c", "broker-a", address, address + "1");
    }

    /** Proposes on whichever controller leads; leadership may still move right after an election. */
    private static ApplyResult proposeOnLeader(List<Controller> controllers, ControllerCommand command)
            throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (true) {
            try {
                return awaitLeader(controllers).propose(command).get(10, TimeUnit.SECONDS);
            } catch (ExecutionException | TimeoutException e) {
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("no leader committed " + command, e);
                }
            }
        }
    }

    private static Controller awaitLeader(List<Controller> controllers) {
        await(() -> controllers.stream().anyMatch(Controller::isLeader), "a leader");
        Optional<Controller> leader = controllers.stream().filter(Controller::isLeader).findFirst();
        assertTrue(leader.isPresent());
        return leader.get();
    }

    private static void await(BooleanSupplier condition, String what) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting for " + what);
            }
            Thread.onSpinWait();
            Thread.yield();
        }
    }

    static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
