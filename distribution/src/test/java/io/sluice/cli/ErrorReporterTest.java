package io.sluice.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A failed command's one line: the messages of the error and its causes, joined, each said once (a wrapper that
 * repeats its cause's message adds nothing), and the class name where an error has no message.
 */
@Timeout(10)
class ErrorReporterTest {

    @Test
    void theCausesAddWhatTheWrapperDidNotSay() {
        Exception error = new IllegalStateException("cannot reach the name server",
                new ConnectException("Connection refused: 127.0.0.1:9876"));
        assertEquals("cannot reach the name server: Connection refused: 127.0.0.1:9876",
                ErrorReporter.describe(error));
    }

    @Test
    void aWrapperRepeatingItsCauseIsSaidOnce() {
        IOException root = new IOException("disk full");
        Exception wrapped = new CompletionException(new ExecutionException(root.toString(), root));
        assertEquals("java.util.concurrent.ExecutionException: java.io.IOException: disk full",
                ErrorReporter.describe(wrapped), "each message says its cause's too: nothing is repeated");
        assertEquals("cannot write /tmp/x: disk full",
                ErrorReporter.describe(new UncheckedIOException("cannot write /tmp/x", root)));
    }

    @Test
    void anErrorWithoutAMessageIsNamedByItsClass() {
        assertEquals("UnsupportedOperationException", ErrorReporter.describe(new UnsupportedOperationException()));
        assertEquals("topic 'T' does not exist: IllegalStateException",
                ErrorReporter.describe(new IllegalArgumentException("topic 'T' does not exist",
                        new IllegalStateException())));
    }
}
