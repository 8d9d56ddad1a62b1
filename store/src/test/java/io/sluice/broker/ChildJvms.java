package io.sluice.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * A test's child JVMs, each running a main class of this test's class path and known by a key; their output is
 * appended to {@code <dir>/<logName>.log}. {@link #close} stops every one still running and prints the last lines
 * of every log (the directory is usually a temporary one, gone after the test). Not thread-safe: the test thread
 * only.
 */
final class ChildJvms implements AutoCloseable {

    private final Path dir;
    private static final int LOG_TAIL_LINES = 60;

    private final Map<String, Process> children = new HashMap<>();
    private final Set<Path> logs = new LinkedHashSet<>();

    ChildJvms(Path dir) {
        this.dir = dir;
    }

    /** Starts {@code main} with {@code args} in a small JVM, known as {@code key}. */
    void start(String key, String logName, Class<?> main, String... args) {
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m", "-XX:+UseSerialGC", "-cp", System.getProperty("java.class.path"), main.getName()));
        command.addAll(List.of(args));
        Path log = dir.resolve(logName + ".log");
        logs.add(log);
        try {
            Process child = new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                    .start();
            children.put(key, child);
        } catch (IOException e) {
            throw new IllegalStateException("cannot start a child JVM for " + main.getName(), e);
        }
    }

    /** The process id of child {@code key}. */
    long pid(String key) {
        return children.get(key).pid();
    }

    /** SIGKILLs child {@code key} and waits until it is gone. */
    void kill(String key) throws InterruptedException {
        Process child = children.remove(key);
        assertTrue(child.toHandle().destroyForcibly(), "kill not sent");
        assertTrue(child.waitFor(30, TimeUnit.SECONDS), "child did not die");
        assertEquals(137, child.exitValue(), "killed by SIGKILL");
    }

    /** Sends {@code signal} (STOP, CONT) to child {@code key}. */
    void signal(String key, String signal) throws IOException, InterruptedException {
        Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(pid(key))).inheritIO().start();
        assertTrue(kill.waitFor(10, TimeUnit.SECONDS) && kill.exitValue() == 0, "kill -" + signal + " failed");
    }

    @Override
    public void close() throws InterruptedException {
        children.values().forEach(Process::destroyForcibly);
        for (Process child : children.values()) {
            child.waitFor(30, TimeUnit.SECONDS);
        }
        children.clear();
        for (Path log : logs) {
            try {
                List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
                System.out.println("---- last lines of " + log.getFileName() + " ----");
                lines.subList(Math.max(0, lines.size() - LOG_TAIL_LINES), lines.size()).forEach(System.out::println);
            } catch (IOException e) {
                System.out.println("---- " + log + " unreadable: " + e + " ----");
            }
        }
    }
}
