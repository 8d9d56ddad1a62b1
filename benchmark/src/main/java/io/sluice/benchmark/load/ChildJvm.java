package io.sluice.benchmark.load;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * A server the harness started in a JVM of its own, bound to 127.0.0.1; its stdout and stderr go to a log file.
 * {@link #close()} stops it (SIGTERM, then SIGKILL after 30 s). Until then a shutdown hook of the harness's JVM
 * stops it too, so an interrupted harness (Ctrl-C, SIGTERM) leaves no server behind. Owned by the thread that
 * started it.
 */
final class ChildJvm implements AutoCloseable {

    private final String name;
    private final Process process;
    private final Path logFile;
    private final Thread stopOnExit;

    private ChildJvm(String name, Process process, Path logFile) {
        this.name = name;
        this.process = process;
        this.logFile = logFile;
        this.stopOnExit = new Thread(this::stopQuietlyOnExit, "stop-" + name);
        Runtime.getRuntime().addShutdownHook(stopOnExit);
    }

    /** The shutdown hook: SIGTERM, then SIGKILL after 10 s; nothing is left to report to at this point. */
    private void stopQuietlyOnExit() {
        process.destroy();
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Starts {@code java jvmOptions -cp classPath mainClass args} in {@code dir}.
     *
     * @param name a label for logs and errors
     */
    static ChildJvm start(String name, String classPath, List<String> jvmOptions, String mainClass,
                          List<String> args, Path dir) throws IOException {
        Files.createDirectories(dir);
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(jvmOptions);
        command.add("-cp");
        command.add(classPath);
        command.add(mainClass);
        command.addAll(args);
        Path log = dir.resolve(name + ".log");
        Process process = new ProcessBuilder(command).directory(dir.toFile())
                .redirectErrorStream(true).redirectOutput(log.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile())).start();
        return new ChildJvm(name, process, log);
    }

    /** Runs {@code java ... mainClass args} to completion (at most 2 minutes); fails with its output if it fails. */
    static void run(String name, String classPath, List<String> jvmOptions, String mainClass, List<String> args,
                    Path dir) throws IOException, InterruptedException {
        try (ChildJvm child = start(name, classPath, jvmOptions, mainClass, args, dir)) {
            if (!child.process.waitFor(2, TimeUnit.MINUTES) || child.process.exitValue() != 0) {
                throw new IllegalStateException(name + " failed: " + child.tail());
            }
        }
    }

    /** Waits until {@code port} on 127.0.0.1 accepts connections; fails if the process dies or time runs out. */
    void awaitPort(int port, long timeoutMs) {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        while (!accepts(port)) {
            if (!process.isAlive()) {
                throw new IllegalStateException(name + " exited with " + process.exitValue() + " before port "
                        + port + " opened: " + tail());
            }
            if (System.nanoTime() - deadline > 0) {
                throw new IllegalStateException(name + " did not open port " + port + " within " + timeoutMs
                        + " ms: " + tail());
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(100));
        }
    }

    /** The last lines of the log. */
    String tail() {
        try {
            List<String> lines = Files.readAllLines(logFile, StandardCharsets.UTF_8);
            return "\n  " + String.join("\n  ", lines.subList(Math.max(0, lines.size() - 30), lines.size()))
                    + "\n  (log: " + logFile + ")";
        } catch (IOException e) {
            return "(log " + logFile + " unreadable: " + e + ")";
        }
    }

    @Override
    public void close() throws InterruptedException {
        try {
            Runtime.getRuntime().removeShutdownHook(stopOnExit);
        } catch (IllegalStateException shuttingDown) {
            // The JVM is exiting and the hook is running or has run: it stops the process itself.
            return;
        }
        if (process.isAlive()) {
            process.destroy();
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
            }
        }
    }

    @Override
    public String toString() {
        return name + " (pid " + process.pid() + ")";
    }

    static boolean accepts(int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 500);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** A port free on 127.0.0.1 now. */
    static int freePort() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A free port P with P-2 and P+1 free too (an Apache broker also listens on both). */
    static int freePortWithNeighbours() {
        for (int attempt = 0; attempt < 100; attempt++) {
            int port = freePort();
            if (port > 1026 && port < 65534 && isFree(port - 2) && isFree(port + 1)) {
                return port;
            }
        }
        throw new IllegalStateException("found no free port P with P-2 and P+1 free in 100 attempts");
    }

    private static boolean isFree(int port) {
        try (ServerSocket socket = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort() == port;
        } catch (IOException e) {
            return false;
        }
    }
}
