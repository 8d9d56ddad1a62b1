package io.sluice.cli;

import picocli.CommandLine;
import picocli.CommandLine.IParameterExceptionHandler;
import picocli.CommandLine.ParameterException;

/**
 * Turns a bad argument into one line on stderr and exit code 2: {@code sluice <command>: <problem> (see 'sluice
 * <command> --help')}, instead of picocli's full usage text, which buries the problem. Stateless.
 */
final class UsageErrorReporter implements IParameterExceptionHandler {

    /** Exit code of a command whose arguments were refused. */
    static final int BAD_ARGUMENT = 2;

    @Override
    public int handleParseException(ParameterException e, String[] args) {
        CommandLine commandLine = e.getCommandLine();
        String command = commandLine.getCommandSpec().qualifiedName();
        commandLine.getErr().println(command + ": " + e.getMessage() + " (see '" + command + " --help')");
        commandLine.getErr().flush();
        return BAD_ARGUMENT;
    }
}
