package io.sluice.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * Every command of the launcher, walked from its command tree rather than listed by hand, so a command added later
 * is covered too: an unknown option (or, first, a missing required one), and a word given to each numeric option,
 * are refused with exit code 2 and one stderr line that names the command, the problem and {@code --help}, before
 * anything connects or starts.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class CliEveryOptionTest {

    private static final Set<Class<?>> NUMBERS = Set.of(int.class, Integer.class, long.class, Long.class,
            double.class, Double.class);

    /** What one run printed on stderr and returned. */
    private record Run(int exitCode, String err) {
    }

    private static Run run(List<String> args) {
        StringWriter err = new StringWriter();
        CommandLine commandLine = SluiceCli.commandLine();
        commandLine.setErr(new PrintWriter(err, true));
        commandLine.setOut(new PrintWriter(new StringWriter(), true));
        int exitCode = commandLine.execute(args.toArray(String[]::new));
        return new Run(exitCode, err.toString().strip());
    }

    /** Every command below the root, as the words that name it. */
    private static List<List<String>> commandPaths() {
        List<List<String>> paths = new ArrayList<>();
        collect(SluiceCli.commandLine(), List.of(), paths);
        return paths;
    }

    private static void collect(CommandLine command, List<String> path, List<List<String>> paths) {
        for (var entry : command.getSubcommands().entrySet()) {
            if (!entry.getValue().getCommandName().equals(entry.getKey()) || entry.getKey().equals("help")) {
                // Aliases repeat a command; picocli's own help command takes any words as command names.
                continue;
            }
            List<String> sub = new ArrayList<>(path);
            sub.add(entry.getKey());
            paths.add(sub);
            collect(entry.getValue(), sub, paths);
        }
    }

    private static CommandSpec spec(List<String> path) {
        CommandLine command = SluiceCli.commandLine();
        for (String word : path) {
            command = command.getSubcommands().get(word);
        }
        return command.getCommandSpec();
    }

    private static void assertOneLineNaming(Run run, List<String> path, String problem) {
        String command = "sluice " + String.join(" ", path);
        assertEquals(UsageErrorReporter.BAD_ARGUMENT, run.exitCode(), command + ": " + run.err());
        assertEquals(1, run.err().lines().count(), "one line: " + run.err());
        assertTrue(run.err().startsWith(command + ": "), run.err());
        assertTrue(run.err().contains(problem), problem + " in " + run.err());
        assertTrue(run.err().endsWith("(see '" + command + " --help')"), run.err());
    }

    @Test
    void everyCommandRefusesAnUnknownOptionNamingIt() {
        List<List<String>> paths = commandPaths();
        for (List<String> path : paths) {
            List<String> args = new ArrayList<>(path);
            args.add("--no-such-option");
            CommandSpec spec = spec(path);
            boolean needsMore = spec.requiredArgs().stream().anyMatch(arg -> arg.required());
            // picocli names a missing required argument before an unknown one; either way one line names it.
            assertOneLineNaming(run(args), path, needsMore ? "Missing required" : "'--no-such-option'");
        }
        assertTrue(paths.size() >= 20, "commands found: " + paths);
    }

    @Test
    void everyNumericOptionRefusesAWordNamingTheOptionAndTheValue() {
        int checked = 0;
        for (List<String> path : commandPaths()) {
            for (OptionSpec option : spec(path).options()) {
                if (!NUMBERS.contains(option.type()) || option.arity().max() == 0) {
                    continue;
                }
                List<String> args = new ArrayList<>(path);
                args.add(option.longestName() + "=many");
                assertOneLineNaming(run(args), path, "Invalid value for option '" + option.longestName()
                        + "': 'many' ");
                checked++;
            }
        }
        assertTrue(checked >= 10, "numeric options checked: " + checked);
    }

    @Test
    void everyCommandWithSubcommandsNamesThemWhenNoneIsGiven() {
        for (List<String> path : commandPaths()) {
            CommandSpec spec = spec(path);
            if (spec.subcommands().isEmpty() || spec.userObject() instanceof Runnable) {
                continue;
            }
            Run run = run(path);
            assertEquals(UsageErrorReporter.BAD_ARGUMENT, run.exitCode(), path + ": " + run.err());
            for (String sub : spec.subcommands().keySet()) {
                if (spec.subcommands().get(sub).getCommandName().equals(sub)) {
                    assertTrue(run.err().contains(sub), sub + " named in " + run.err());
                }
            }
        }
    }
}
