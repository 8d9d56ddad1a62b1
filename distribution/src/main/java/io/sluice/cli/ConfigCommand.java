package io.sluice.cli;

import io.sluice.broker.config.BrokerConfigKeys;
import io.sluice.broker.config.BrokerConfigLoader;
import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code sluice config reference} prints the broker configuration reference (Markdown, from
 * {@link BrokerConfigKeys#describe()}); {@code sluice config check FILE} loads a broker.conf and reports the first
 * error, naming the key. Not thread-safe; one command per process.
 */
@Command(name = "config", mixinStandardHelpOptions = true, description = "Broker configuration: reference and checks.",
        subcommands = {ConfigCommand.Reference.class, ConfigCommand.Check.class})
final class ConfigCommand implements Runnable {

    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        throw new ParameterException(spec.commandLine(), "missing subcommand: reference or check");
    }

    @Command(name = "reference", mixinStandardHelpOptions = true,
            description = "Print every broker.conf key (Markdown table).")
    static final class Reference implements Callable<Integer> {
        @Override
        public Integer call() {
            System.out.print(BrokerConfigKeys.describe());
            return 0;
        }
    }

    @Command(name = "check", mixinStandardHelpOptions = true,
            description = "Load a broker config file; print 'ok' or the first error.")
    static final class Check implements Callable<Integer> {
        @Parameters(paramLabel = "FILE", description = "the broker config file")
        Path file;

        @Override
        public Integer call() throws IOException {
            BrokerConfigLoader.load(file);
            System.out.println(file + ": ok");
            return 0;
        }
    }
}
