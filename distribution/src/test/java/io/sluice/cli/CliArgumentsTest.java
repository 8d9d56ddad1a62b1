package io.sluice.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import picocli.CommandLine;

/**
 * The launcher's refusals, without any server: a bad argument is exit code 2 and one stderr line naming the
 * command, the problem and {@code --help}; arguments that parse but cannot be honoured are exit code 1 and one line
 * naming the command and the problem. Every case here fails before a connection is attempted.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class CliArgumentsTest {

    @TempDir
    Path dir;

    /** What one run printed on stderr and returned. */
    private record Run(int exitCode, String err) {
    }

    private static Run run(String... args) {
        StringWriter err = new StringWriter();
        CommandLine commandLine = SluiceCli.commandLine();
        commandLine.setErr(new PrintWriter(err, true));
        int exitCode = commandLine.execute(args);
        return new Run(exitCode, err.toString().strip());
    }

    private static Run runExpecting(int exitCode, String... args) {
        Run run = run(args);
        assertEquals(exitCode, run.exitCode(), run.err());
        return run;
    }

    static Stream<Arguments> usageErrors() {
        return Stream.of(
                Arguments.of(new String[] {}, "sluice: missing subcommand"),
                Arguments.of(new String[] {"frobnicate"}, "sluice: Unmatched argument at index 0: 'frobnicate'"),
                Arguments.of(new String[] {"admin"},
                        "sluice admin: missing subcommand: topic, cluster, broker, consumer or group"),
                Arguments.of(new String[] {"admin", "topic"},
                        "sluice admin topic: missing subcommand: create, update, delete, list, route or status"),
                Arguments.of(new String[] {"admin", "topic", "create"},
                        "sluice admin topic create: Missing required option: '--topic=<topic>'"),
                Arguments.of(new String[] {"admin", "topic", "update", "-t", "T"},
                        "sluice admin topic update: Missing required option: '--queues=<queues>'"),
                Arguments.of(new String[] {"admin", "topic", "create", "-t", "T", "-q", "eight"},
                        "sluice admin topic create: Invalid value for option '--queues': 'eight' is not an int"),
                Arguments.of(new String[] {"admin", "group", "reset", "G", "-t", "T"},
                        "sluice admin group reset: Error: Missing required argument (specify one of these):"
                                + " (--to-earliest | --to-latest | --to-offset=N | --by-time=TS)"),
                Arguments.of(new String[] {"admin", "group", "reset", "G", "-t", "T", "--to-earliest",
                    "--to-latest"}, "sluice admin group reset: Error: --to-earliest, --to-latest are mutually"
                        + " exclusive"),
                Arguments.of(new String[] {"admin", "group", "reset", "G", "-t", "T", "--by-time", "yesterday"},
                        "'yesterday' is neither epoch milliseconds nor an ISO-8601 instant"),
                Arguments.of(new String[] {"admin", "group", "reset", "G", "-t", "T", "--by-time",
                    "99999999999999999999"}, "'99999999999999999999' is too large for epoch milliseconds"),
                Arguments.of(new String[] {"admin", "group", "reset", "-t", "T", "--to-latest"},
                        "sluice admin group reset: Missing required parameter: 'GROUP'"),
                Arguments.of(new String[] {"produce"},
                        "sluice produce: Missing required option: '--topic=<topic>'"),
                Arguments.of(new String[] {"produce", "-t", "T", "--size", "1k"},
                        "sluice produce: Invalid value for option '--size': '1k' is not an int"),
                Arguments.of(new String[] {"consume"},
                        "sluice consume: Missing required option: '--topic=<topic>'"),
                Arguments.of(new String[] {"consume", "-t", "T", "--from", "MIDDLE"},
                        "sluice consume: Invalid value for option '--from'"),
                Arguments.of(new String[] {"consume", "-t", "T", "--print", "XML"},
                        "sluice consume: Invalid value for option '--print'"),
                Arguments.of(new String[] {"config"}, "sluice config: missing subcommand: reference or check"),
                Arguments.of(new String[] {"config", "check"},
                        "sluice config check: Missing required parameter: 'FILE'"),
                Arguments.of(new String[] {"broker"},
                        "sluice broker: Missing required option: '--config=FILE'"),
                Arguments.of(new String[] {"stop", "--timeout-seconds", "soon"},
                        "sluice stop: Invalid value for option '--timeout-seconds'"));
    }

    @ParameterizedTest
    @MethodSource("usageErrors")
    void aBadArgumentIsExitCodeTwoAndOneLineNamingIt(String[] args, String expected) {
        Run run = runExpecting(UsageErrorReporter.BAD_ARGUMENT, args);
        assertEquals(1, run.err().lines().count(), "one line: " + run.err());
        assertTrue(run.err().contains(expected), run.err());
        assertTrue(run.err().endsWith("--help')"), "points at --help: " + run.err());
    }

    /** {@code produce -t T OPTION VALUE}: refused by the command, which prints every value it checked. */
    private static Arguments produceRefusal(String option, String value, String values) {
        return Arguments.of(new String[] {"produce", "-t", "T", option, value}, "sluice produce: --count, --size and"
                + " --in-flight must be positive and --rate not negative: " + values);
    }

    static Stream<Arguments> refusedValues() {
        return Stream.of(
                produceRefusal("--count", "0", "count=0 size=1024 in-flight=8192 rate=0"),
                produceRefusal("--size", "-5", "count=100000 size=-5 in-flight=8192 rate=0"),
                produceRefusal("--rate", "-1", "count=100000 size=1024 in-flight=8192 rate=-1"),
                produceRefusal("--in-flight", "0", "count=100000 size=1024 in-flight=0 rate=0"),
                Arguments.of(new String[] {"consume", "-t", "T", "--count", "-1"},
                        "sluice consume: --count and --max-seconds must not be negative: count=-1 max-seconds=0"),
                Arguments.of(new String[] {"consume", "-t", "T", "--max-seconds", "-3"},
                        "sluice consume: --count and --max-seconds must not be negative: count=0 max-seconds=-3"),
                Arguments.of(new String[] {"admin", "topic", "create", "-t", "T", "--queue-type", "FancyCQ"},
                        "sluice admin topic create: unknown queue type 'FancyCQ': use SimpleCQ or BatchCQ"));
    }

    @ParameterizedTest
    @MethodSource("refusedValues")
    void aValueTheCommandCannotHonourIsExitCodeOneAndOneLine(String[] args, String expected) {
        assertEquals(expected, runExpecting(ErrorReporter.FAILED, args).err(), "exactly one line");
    }

    @Test
    void configCheckNamesTheBadKeyAndFailsWithExitCodeOne() throws Exception {
        Path file = dir.resolve("broker.conf");
        Files.writeString(file, "brokerName=b\nlistenPort=70000\n");
        Run run = runExpecting(ErrorReporter.FAILED, "config", "check", file.toString());
        assertTrue(run.err().startsWith("sluice config check: "), run.err());
        assertTrue(run.err().contains("listenPort"), run.err());
        assertTrue(run.err().contains("out of range 0..65535"), run.err());
    }

    @Test
    void configCheckOfAMissingFileFailsNamingTheFile() {
        Path missing = dir.resolve("nowhere.conf");
        Run run = runExpecting(ErrorReporter.FAILED, "config", "check", missing.toString());
        assertTrue(run.err().contains("nowhere.conf"), run.err());
    }

    @Test
    void configCheckAcceptsAValidFile() throws Exception {
        Path file = dir.resolve("good.conf");
        Files.writeString(file, "brokerName=b\nlistenPort=10921\nstorePathRootDir=" + dir.resolve("store") + "\n");
        assertEquals("", runExpecting(0, "config", "check", file.toString()).err());
    }
}
