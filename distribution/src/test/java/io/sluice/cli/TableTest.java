package io.sluice.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class TableTest {

    @Test
    void padsColumnsAndRightAlignsNumbers() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        new Table("TOPIC", "QUEUES").row("orders", 8).row("a", 1024).print(new PrintStream(bytes, true,
                StandardCharsets.UTF_8));
        assertEquals("TOPIC   QUEUES\norders       8\na         1024\n",
                bytes.toString(StandardCharsets.UTF_8).replace(System.lineSeparator(), "\n"));
    }

    @Test
    void aRowOfTheWrongWidthIsRejected() {
        Table table = new Table("A", "B");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> table.row("only one"));
        assertEquals("a row of 1 cells for 2 columns: [only one]", e.getMessage());
    }

    @Test
    void errorsJoinTheCauseChainWithoutRepeats() {
        Exception e = new IllegalStateException("creating topic T failed: timeout",
                new RuntimeException("timeout"));
        assertEquals("creating topic T failed: timeout", ErrorReporter.describe(e));
        Exception chained = new IllegalStateException("send failed", new RuntimeException("connection refused"));
        assertEquals("send failed: connection refused", ErrorReporter.describe(chained));
    }
}
