package io.sluice.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.broker.config.BrokerConfigKeys;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The README's configuration reference is the one {@link BrokerConfigKeys#describe()} renders today. */
class ReadmeTest {

    private static final String START = "<!-- config-reference:start (bin/sluice config reference) -->\n";
    private static final String END = "<!-- config-reference:end -->";

    @Test
    void configReferenceMatchesTheKeys() throws IOException {
        String readme = Files.readString(Path.of("..", "README.md"), StandardCharsets.UTF_8);
        int start = readme.indexOf(START);
        int end = readme.indexOf(END);
        assertTrue(start >= 0 && end > start, "README.md has the config-reference markers");
        assertEquals(BrokerConfigKeys.describe(), readme.substring(start + START.length(), end),
                "README.md's config reference is stale: regenerate it with bin/sluice config reference");
    }
}
