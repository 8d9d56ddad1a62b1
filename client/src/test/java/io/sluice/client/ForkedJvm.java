package io.sluice.client;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** A Java process started by a test, with its output in a log file; destroyed by {@link #close()}. */
final class ForkedJvm implements AutoCloseable {
    private final String name;
    private final Process process;
    private final Path log;

    private ForkedJvm(String name, Process process, Path log) {
        this.name = name;
        this.process = process;
        this.log = log;
    }

    /** Starts {@code java -cp classPath jvmArgs mainClass args}, output to {@code workDir/name.log}. */
    static ForkedJvm start(String name, String classPath, List<String> jvmArgs, String mainClass, List<String> args,
                          Path workDir) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-cp");
        command.add(classPath);
        command.addAll(jvmArgs);
        command.add(mainClass);
        command.addAll(args);
        Path log = workDir.resolve(name + ".log");
        try {
            Files.createDirectories(workDir);
            Process process = new ProcessBuilder(command).directory(workDir.toFile()).redirectErrorStream(true)
                    .redirectOutput(log.toFile()).start();
            return new ForkedJvm(name, process, log);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + name, e);
        }
    }

    /** Fails with the process's log tail when it has died. */
    void checkAlive() {
        if (!process.isAlive()) {
            throw new IllegalStateException(name + " exited with " + process.exitValue() + ":\n" + tail());
        }
    }

    /** The last lines of the process's output. */
    String tail() {
        try {
            List<String> lines = Files.readAllLines(log);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
        } catch (IOException e) {
            return "(no log: " + e + ")";
        }
    }

    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(15, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
    }

    /** A TCP port free on 127.0.0.1 now whose neighbours {@code port - 2} and {@code port + 1} are free too. */
    static int freePortWithNeighbours() {
        for (int attempt = 0; attempt < 100; attempt++) {
            int port = freePort();
            if (port > 1026 && port < 65534 && isFree(port - 2) && isFree(port + 1)) {
                return port;
            }
        }
        throw new IllegalStateException("no free port with free neighbours");
    }

    static int freePort() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static boolean isFree(int port) {
        try (ServerSocket socket = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** True when something accepts connections on 127.0.0.1:{@code port}. */
    static boolean accepts(int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 200);
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
