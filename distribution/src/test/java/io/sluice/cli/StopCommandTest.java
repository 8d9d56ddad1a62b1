package io.sluice.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code sluice stop} without a daemon to stop: every way the pid file can be wrong is exit code 1 and one line
 * naming the file; a pid that belongs to a process that is no Sluice JVM is never signalled.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class StopCommandTest {

    @TempDir
    Path dir;

    private String previous;

    @BeforeEach
    void pointThePidDirectoryHere() {
        previous = System.getProperty("sluice.pid.dir");
        System.setProperty("sluice.pid.dir", dir.toString());
    }

    @AfterEach
    void restore() {
        if (previous == null) {
            System.clearProperty("sluice.pid.dir");
        } else {
            System.setProperty("sluice.pid.dir", previous);
        }
    }

    private static String stopFailing(String... args) {
        StringWriter err = new StringWriter();
        CommandLine commandLine = SluiceCli.commandLine();
        commandLine.setErr(new PrintWriter(err, true));
        String[] full = new String[args.length + 1];
        full[0] = "stop";
        System.arraycopy(args, 0, full, 1, args.length);
        assertEquals(ErrorReporter.FAILED, commandLine.execute(full), err.toString());
        return err.toString().strip();
    }

    @Test
    void withoutAPidFileTheServerIsNotRunningAsADaemon() {
        String err = stopFailing("broker");
        assertEquals("sluice stop: broker is not running as a daemon: no pid file "
                + dir.resolve("sluice-broker.pid"), err);
    }

    @Test
    void aPidFileWithoutAPidIsNamedWithItsText() throws Exception {
        Files.writeString(dir.resolve("sluice-standalone.pid"), "twelve\n");
        String err = stopFailing();
        String expected = "sluice stop: pid file " + dir.resolve("sluice-standalone.pid")
                + " does not hold a pid: 'twelve'";
        assertTrue(err.startsWith(expected), err);
        assertEquals(1, err.lines().count(), err);
    }

    @Test
    void aPidOfAProcessThatIsNoSluiceJvmIsStaleAndRemovedWithoutSignallingIt() throws Exception {
        long self = ProcessHandle.current().pid();
        Path pidFile = dir.resolve("sluice-namesrv.pid");
        Files.writeString(pidFile, self + "\n");
        String err = stopFailing("namesrv");
        assertEquals("sluice stop: namesrv is not running: stale pid file " + pidFile + " (pid " + self
                + ") removed", err);
        assertFalse(Files.exists(pidFile));
        assertTrue(ProcessHandle.current().isAlive(), "this JVM was not signalled");
    }

    @Test
    void aMissingPidDirectoryIsNamed() {
        System.clearProperty("sluice.pid.dir");
        String err = stopFailing();
        assertEquals("sluice stop: no pid directory: run this through bin/sluice, which sets -Dsluice.pid.dir", err);
    }
}
