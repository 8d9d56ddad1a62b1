package io.sluice.distribution;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Daemon mode through the launcher: {@code bin/sluice standalone --daemon} detaches, writes its pid file and
 * serves; {@code bin/sluice stop} ends that process (checked by its pid) and removes the file; stale pid files are
 * recognised by both.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class DaemonIT {

    @TempDir
    Path dir;

    @Test
    void aDaemonStartsDetachedWithAPidFileAndStopsBySigterm() throws Exception {
        int namesrvPort = StandaloneConf.freePort();
        int brokerPort = StandaloneConf.freePort();
        Path conf = StandaloneConf.write(dir, namesrvPort, brokerPort);
        Path pidFile = dir.resolve("run").resolve("sluice-standalone.pid");
        Files.createDirectories(pidFile.getParent());
        Files.writeString(pidFile, deadPid() + "\n", StandardCharsets.US_ASCII);

        SluiceProcess.Result started = SluiceProcess.run(dir, "standalone", "--daemon", "-c", conf.toString());
        Optional<ProcessHandle> daemon = Optional.empty();
        try {
            assertEquals(0, started.exitCode(), started.toString());
            assertTrue(started.stderr().contains("removing stale pid file"), started.stderr());
            long pid = Long.parseLong(Files.readString(pidFile, StandardCharsets.US_ASCII).strip());
            assertTrue(started.stdout().contains("started as a daemon: pid " + pid), started.stdout());
            daemon = ProcessHandle.of(pid);
            assertTrue(daemon.isPresent() && daemon.get().isAlive(), "the daemon runs after the launcher returned");

            SluiceProcess.Result clusters = SluiceProcess.run(dir, "admin", "cluster", "list", "-n",
                    "127.0.0.1:" + namesrvPort);
            assertEquals(0, clusters.exitCode(), clusters.toString());
            assertTrue(clusters.stdout().contains("127.0.0.1:" + brokerPort), clusters.stdout());

            SluiceProcess.Result again = SluiceProcess.run(dir, "standalone", "--daemon", "-c", conf.toString());
            assertEquals(1, again.exitCode(), again.toString());
            assertTrue(again.stderr().contains("already running as pid " + pid), again.stderr());

            SluiceProcess.Result stopped = SluiceProcess.run(dir, "stop", "standalone");
            assertEquals(0, stopped.exitCode(), stopped.toString());
            assertTrue(stopped.stdout().contains("sluice standalone (pid " + pid + ") stopped"), stopped.stdout());
            assertFalse(daemon.get().isAlive(), "pid " + pid + " is gone once stop returned");
            assertFalse(Files.exists(pidFile), "the pid file is removed");
            assertTrue(Files.readString(dir.resolve("logs").resolve("standalone.out")).contains("stopping"),
                    "the server closed from its shutdown hook");
        } finally {
            daemon.ifPresent(ProcessHandle::destroyForcibly);
        }

        SluiceProcess.Result notRunning = SluiceProcess.run(dir, "stop", "standalone");
        assertEquals(1, notRunning.exitCode(), notRunning.toString());
        assertTrue(notRunning.stderr().strip().matches("sluice stop: standalone is not running as a daemon: no pid"
                + " file \\S+sluice-standalone\\.pid"), notRunning.stderr());

        long dead = deadPid();
        Files.writeString(pidFile, dead + "\n", StandardCharsets.US_ASCII);
        SluiceProcess.Result stale = SluiceProcess.run(dir, "stop", "standalone");
        assertEquals(1, stale.exitCode(), stale.toString());
        assertTrue(stale.stderr().contains("stale pid file") && stale.stderr().contains("(pid " + dead + ")"),
                stale.stderr());
        assertFalse(Files.exists(pidFile), "the stale pid file is removed");
    }

    @Test
    void onlyServersRunAsDaemons() throws Exception {
        SluiceProcess.Result result = SluiceProcess.run(dir, "admin", "--daemon", "topic", "list");
        assertEquals(2, result.exitCode(), result.toString());
        assertTrue(result.stderr().contains("--daemon is for standalone, broker, namesrv and controller"),
                result.stderr());
        SluiceProcess.Result help = SluiceProcess.run(dir, "broker", "--help");
        assertTrue(help.stdout().contains("--daemon"), "the option is documented: " + help.stdout());
    }

    /** The pid of a process that has exited. */
    private static long deadPid() throws Exception {
        Process process = new ProcessBuilder("true").start();
        assertTrue(process.waitFor(10, TimeUnit.SECONDS));
        return process.pid();
    }
}
