package io.sluice.cli;

import picocli.CommandLine;
import picocli.CommandLine.IExecutionExceptionHandler;
import picocli.CommandLine.ParseResult;

/**
 * Turns a failed command into one clear line on stderr and exit code 1: {@code sluice <command>: <message>}, with
 * the messages of the causes appended when they add something. Stateless.
 */
final class ErrorReporter implements IExecutionExceptionHandler {

    /** Exit code of a command that failed after its arguments were accepted. */
    static final int FAILED = 1;

    @Override
    public int handleExecutionException(Exception e, CommandLine commandLine, ParseResult parseResult) {
        commandLine.getErr().println(commandLine.getCommandSpec().qualifiedName() + ": " + describe(e));
        commandLine.getErr().flush();
        return FAILED;
    }

    /** The messages of {@code error} and its causes, joined by ": ", without repeats. */
    static String describe(Throwable error) {
        StringBuilder text = new StringBuilder();
        String last = null;
        for (Throwable t = error; t != null; t = t.getCause()) {
            String message = t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage();
            if (last != null && last.contains(message)) {
                continue;
            }
            if (text.length() > 0) {
                text.append(": ");
            }
            text.append(message);
            last = message;
            if (t.getCause() == t) {
                break;
            }
        }
        return text.toString();
    }
}
