package io.sluice.cli;

import java.util.Optional;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.HelpCommand;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * The {@code bin/sluice} launcher: one command with a subcommand per job (the list and what each does: README,
 * "The launcher", and {@code sluice help}).
 *
 * <p>The {@code bench} command is registered only when the harness's jar is on the classpath, which bin/sluice
 * arranges for {@code bench} and {@code help} alone, so the servers do not carry the harness's libraries.
 *
 * <p>Exit codes: 0 success, 1 the command failed (message on stderr), 2 bad arguments (one line on stderr naming the
 * problem and pointing at {@code --help}).
 * Not thread-safe; one instance per process.
 */
@Command(name = "sluice", mixinStandardHelpOptions = true, versionProvider = SluiceVersion.class,
        description = "Sluice: a RocketMQ-wire-compatible message broker with one shared CommitLog.",
        subcommands = {StandaloneCommand.class, NamesrvCommand.class, ControllerCommand.class, BrokerCommand.class,
                AdminCommand.class,
                ConfigCommand.class, StopCommand.class,
                ProduceCommand.class, ConsumeCommand.class})
public final class SluiceCli implements Runnable {

    private static final String BENCH = "bench";
    private static final String BENCH_COMMAND_CLASS = "io.sluice.benchmark.load.BenchCommand";

    @Spec
    CommandSpec spec;

    /** Runs the launcher and exits the JVM with the command's exit code. */
    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }

    /** The launcher's command line with its error reporting; for tests and {@link #main}. */
    static CommandLine commandLine() {
        CommandLine commandLine = new CommandLine(new SluiceCli());
        benchCommand().ifPresent(bench -> commandLine.addSubcommand(BENCH, bench));
        commandLine.addSubcommand(new HelpCommand());
        commandLine.setExecutionExceptionHandler(new ErrorReporter());
        commandLine.setParameterExceptionHandler(new UsageErrorReporter());
        return commandLine;
    }

    /** The load harness's command when its jar is on the classpath (bin/sluice bench and help), else empty. */
    static Optional<Object> benchCommand() {
        Class<?> type;
        try {
            type = Class.forName(BENCH_COMMAND_CLASS);
        } catch (ClassNotFoundException e) {
            return Optional.empty(); // a server's or a tool's classpath: lib/ without lib/bench/
        }
        try {
            return Optional.of(type.getDeclaredConstructor().newInstance());
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot create the bench command " + BENCH_COMMAND_CLASS, e);
        }
    }

    @Override
    public void run() {
        throw new ParameterException(spec.commandLine(), "missing subcommand");
    }
}
