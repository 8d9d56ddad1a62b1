package io.sluice.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine.TypeConversionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;

/** {@code --by-time}: epoch milliseconds or an ISO-8601 instant, and nothing else. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class TimestampConverterTest {

    private final GroupCommand.TimestampConverter converter = new GroupCommand.TimestampConverter();

    @Property(tries = 200)
    void epochMillisecondsReadAsThemselves(@ForAll @LongRange(min = 0, max = 253_402_300_799_999L) long epochMs) {
        assertEquals(epochMs, converter.convert(Long.toString(epochMs)));
    }

    @Property(tries = 200)
    void anIsoInstantReadsAsItsEpochMilliseconds(
            @ForAll @LongRange(min = 0, max = 253_402_300_799_999L) long epochMs) {
        Instant instant = Instant.ofEpochMilli(epochMs);
        assertEquals(epochMs, converter.convert(instant.toString()));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "-5", "12ms", "2026-01-31", "2026-01-31T12:00:00", "yesterday", "1e9"})
    void anythingElseIsRefusedNamingTheText(String text) {
        TypeConversionException e = assertThrows(TypeConversionException.class, () -> converter.convert(text));
        assertTrue(e.getMessage().startsWith("'" + text + "' is neither epoch milliseconds"), e.getMessage());
    }

    @Test
    void digitsBeyondALongAreRefusedAsTooLarge() {
        TypeConversionException e = assertThrows(TypeConversionException.class,
                () -> converter.convert("99999999999999999999"));
        assertEquals("'99999999999999999999' is too large for epoch milliseconds", e.getMessage());
    }
}
