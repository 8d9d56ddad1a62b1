package io.sluice.distribution;

import io.sluice.testing.Await;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

/**
 * One {@code bin/sluice} process of the assembled distribution, for tests: its stdout lines are collected by a
 * reader thread, its stderr goes to a file; logs and daemon pid files go under the test's directory. Closing destroys it (SIGTERM, then SIGKILL after 20 s).
 */
final class SluiceProcess implements AutoCloseable {

    /** Where failsafe says the assembled distribution is (see the module's pom). */
    static final Path HOME = Path.of(System.getProperty("sluice.home", "target/sluice"));

    private final Process process;
    private final List<String> stdout = new CopyOnWriteArrayList<>();
    private final Path stderrFile;

    private SluiceProcess(Process process, Path stderrFile) {
        this.process = process;
        this.stderrFile = stderrFile;
        Thread reader = new Thread(this::readStdout, "sluice-process-stdout");
        reader.setDaemon(true);
        reader.start();
    }

    /**
     * Starts {@code bin/sluice args} with a small heap, logs under {@code workDir}.
     *
     * @param workDir a per-test directory: logs and the stderr file go there
     */
    static SluiceProcess start(Path workDir, String... args) throws IOException {
        return start(workDir, Path.of("/dev/null"), args);
    }

    /** {@link #start(Path, String...)} with standard input read from {@code input}. */
    static SluiceProcess start(Path workDir, Path input, String... args) throws IOException {
        List<String> command = new ArrayList<>();
        command.add(HOME.resolve("bin/sluice").toString());
        command.addAll(List.of(args));
        Path stderr = Files.createTempFile(workDir, "stderr", ".txt");
        ProcessBuilder builder = new ProcessBuilder(command).redirectError(stderr.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(input.toFile()));
        builder.environment().put("SLUICE_HEAP_OPTS", "-Xms128m -Xmx256m -XX:MaxDirectMemorySize=256m");
        builder.environment().put("SLUICE_LOG_DIR", workDir.resolve("logs").toString());
        builder.environment().put("SLUICE_PID_DIR", workDir.resolve("run").toString());
        builder.environment().remove("SLUICE_NAMESRV");
        return new SluiceProcess(builder.start(), stderr);
    }

    /** Runs {@code bin/sluice args} to completion (at most 60 s) and returns its exit code and output. */
    static Result run(Path workDir, String... args) throws IOException, InterruptedException {
        return run(workDir, Path.of("/dev/null"), args);
    }

    /** {@link #run(Path, String...)} with standard input read from {@code input}. */
    static Result run(Path workDir, Path input, String... args) throws IOException, InterruptedException {
        try (SluiceProcess p = start(workDir, input, args)) {
            if (!p.process.waitFor(60, TimeUnit.SECONDS)) {
                throw new AssertionError("bin/sluice " + String.join(" ", args) + " did not finish in 60 s");
            }
            Await.until("stdout is read to its end", () -> !p.readerAlive());
            return new Result(p.process.exitValue(), String.join("\n", p.stdout), p.stderr());
        }
    }

    private volatile boolean reading = true;

    private boolean readerAlive() {
        return reading;
    }

    private void readStdout() {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(),
                StandardCharsets.UTF_8))) {
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                stdout.add(line);
            }
        } catch (IOException e) {
            stdout.add("<stdout read failed: " + e + ">");
        } finally {
            reading = false;
        }
    }

    /** Waits until a stdout line contains {@code text}; fails with the process's output otherwise. */
    String awaitLine(String text, long timeoutMs) {
        Await.until("bin/sluice prints '" + text + "'", timeoutMs,
                () -> stdout.stream().anyMatch(l -> l.contains(text)) || !process.isAlive(),
                () -> "stdout " + stdout + ", stderr " + stderr());
        return stdout.stream().filter(l -> l.contains(text)).findFirst()
                .orElseThrow(() -> new AssertionError("bin/sluice exited with " + process.exitValue()
                        + " before printing '" + text + "'; stdout " + stdout + ", stderr " + stderr()));
    }

    /** Kills the process with SIGKILL (bin/sluice execs the JVM, so the JVM itself) and waits for it to end. */
    void kill() throws InterruptedException {
        process.destroyForcibly();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            throw new AssertionError("bin/sluice survived SIGKILL for 30 s");
        }
    }

    String stderr() {
        try {
            return Files.readString(stderrFile, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "<stderr unreadable: " + e + ">";
        }
    }

    @Override
    public void close() throws InterruptedException {
        if (process.isAlive()) {
            process.destroy();
            if (!process.waitFor(20, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        }
    }

    /** Outcome of a finished {@code bin/sluice} run. */
    record Result(int exitCode, String stdout, String stderr) {
    }
}
