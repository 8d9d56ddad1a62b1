package io.sluice.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code sluice stop [COMMAND]}: stops a server started with {@code bin/sluice COMMAND --daemon}. Reads the pid file
 * ({@link PidFile}), sends SIGTERM (the server closes cleanly from its shutdown hook, as on Ctrl-C), waits for the
 * process to exit within a deadline and removes the pid file. A pid file whose process is gone, or is no Sluice JVM
 * (its pid was reused), is stale: it is removed and the command fails saying so. Not thread-safe.
 */
@Command(name = "stop", mixinStandardHelpOptions = true,
        description = {"Stop a server started with 'bin/sluice COMMAND --daemon' (SIGTERM, then wait for it to exit).",
            "The pid file is $SLUICE_PID_DIR/sluice-COMMAND.pid (default $SLUICE_HOME/run)."})
final class StopCommand implements Callable<Integer> {

    @Parameters(index = "0", defaultValue = "standalone", paramLabel = "COMMAND",
            description = "standalone, broker, namesrv or controller (default: ${DEFAULT-VALUE})")
    String command;

    @Option(names = "--timeout-seconds", defaultValue = "60",
            description = "how long to wait for the process to exit (default: ${DEFAULT-VALUE})")
    long timeoutSeconds;

    @Override
    public Integer call() throws IOException, InterruptedException {
        PidFile pidFile = PidFile.of(command);
        long pid = pidFile.read().orElseThrow(() -> new IllegalArgumentException(command + " is not running as a"
                + " daemon: no pid file " + pidFile.path()));
        Optional<ProcessHandle> process = ProcessHandle.of(pid).filter(PidFile::isSluice);
        if (process.isEmpty()) {
            pidFile.delete();
            throw new IllegalArgumentException(command + " is not running: stale pid file " + pidFile.path()
                    + " (pid " + pid + ") removed");
        }
        long startNs = System.nanoTime();
        process.get().destroy();
        try {
            process.get().onExit().get(timeoutSeconds, TimeUnit.SECONDS);
        } catch (TimeoutException e) {
            throw new IllegalStateException(command + " (pid " + pid + ") did not exit within " + timeoutSeconds
                    + " s of SIGTERM; pid file " + pidFile.path() + " kept", e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("waiting for pid " + pid + " failed", e.getCause());
        }
        pidFile.delete();
        System.out.printf("sluice %s (pid %d) stopped in %d ms%n", command, pid,
                TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNs));
        return 0;
    }

    /**
     * The pid file of a daemon: {@code <sluice.pid.dir>/sluice-<command>.pid} holding the JVM's pid in decimal.
     * {@code bin/sluice} passes {@code -Dsluice.pid.dir} ($SLUICE_PID_DIR, default $SLUICE_HOME/run).
     */
    record PidFile(Path path) {

        /** The pid file of {@code command}'s daemon. */
        static PidFile of(String command) {
            String dir = System.getProperty("sluice.pid.dir");
            if (dir == null || dir.isBlank()) {
                throw new IllegalArgumentException("no pid directory: run this through bin/sluice, which sets"
                        + " -Dsluice.pid.dir");
            }
            return new PidFile(Path.of(dir, "sluice-" + command + ".pid"));
        }

        /** The pid written in the file; empty when there is no file. */
        Optional<Long> read() throws IOException {
            String text;
            try {
                text = Files.readString(path, StandardCharsets.US_ASCII).strip();
            } catch (NoSuchFileException e) {
                return Optional.empty();
            }
            try {
                return Optional.of(Long.parseLong(text));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("pid file " + path + " does not hold a pid: '" + text + "'", e);
            }
        }

        void delete() throws IOException {
            Files.deleteIfExists(path);
        }

        /** Whether {@code process} is a Sluice JVM (and not another process that got a reused pid). */
        static boolean isSluice(ProcessHandle process) {
            ProcessHandle.Info info = process.info();
            return process.isAlive() && (info.arguments().isPresent()
                    ? Arrays.asList(info.arguments().get()).contains(SluiceCli.class.getName())
                    : info.commandLine().map(line -> line.contains(SluiceCli.class.getName())).orElse(false));
        }
    }
}
