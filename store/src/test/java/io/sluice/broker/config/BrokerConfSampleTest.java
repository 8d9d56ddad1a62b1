package io.sluice.broker.config;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Keeps {@code conf/broker.conf} honest: it loads, it has no unknown key (typos fail here), every commented-out
 * example line is valid too, and every key is documented in it.
 */
class BrokerConfSampleTest {

    /** The sample, relative to the store module directory (the test's working directory). */
    private static final Path SAMPLE = Path.of("..", "conf", "broker.conf");

    @Test
    void sampleShouldLoadWithoutUnknownKeys() throws Exception {
        assertTrue(Files.isRegularFile(SAMPLE), SAMPLE.toAbsolutePath() + " is missing");
        BrokerConfigLoader.load(SAMPLE);
    }

    @Test
    void commentedOutExamplesShouldBeValidToo() throws Exception {
        List<String> uncommented = new ArrayList<>();
        for (String line : Files.readAllLines(SAMPLE)) {
            if (line.matches("#[A-Za-z0-9]+=.*")) {
                uncommented.add(line.substring(1));
            }
        }
        assertTrue(uncommented.size() > 20, "expected commented-out examples, found " + uncommented.size());
        BrokerConfigLoader.parse(String.join("\n", uncommented));
    }

    @Test
    void sampleShouldMentionEveryKey() throws Exception {
        List<String> lines = Files.readAllLines(SAMPLE);
        for (ConfigKey<?> key : BrokerConfigKeys.all()) {
            boolean present = lines.stream().anyMatch(l -> l.startsWith(key.name() + "=")
                    || l.startsWith("#" + key.name() + "="));
            assertTrue(present, "conf/broker.conf does not document " + key.name());
        }
    }
}
