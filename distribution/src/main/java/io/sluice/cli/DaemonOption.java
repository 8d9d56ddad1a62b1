package io.sluice.cli;

import picocli.CommandLine.Option;

/**
 * {@code --daemon} of the server commands. {@code bin/sluice} handles it itself (it starts the JVM detached, writes
 * the pid file and waits for the ready line) and never passes it on; the option is declared here so that
 * {@code --help} lists it, and a JVM started without the launcher refuses it as a bad argument.
 */
final class DaemonOption {

    @Option(names = "--daemon", description = "run detached: bin/sluice writes $SLUICE_PID_DIR/sluice-COMMAND.pid"
            + " and returns once the server is ready; stop it with 'sluice stop COMMAND'")
    void daemon(boolean requested) {
        throw new IllegalArgumentException("--daemon is handled by bin/sluice, which did not start this process");
    }
}
