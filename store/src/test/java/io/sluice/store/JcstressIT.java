package io.sluice.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.regex.MatchResult;
import java.util.regex.Pattern;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs the project's jcstress tests (classes named {@code *Stress}, compiled with the tests; jcstress's annotation
 * processor generates their harnesses) in jcstress's sanity mode, in a child JVM, which forks jcstress's own
 * workers. Fails when any outcome a test forbids was observed, or a test could not run. The full mode takes
 * minutes per test; run it by hand with {@code java -cp <test classpath> org.openjdk.jcstress.Main -t Stress}.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class JcstressIT {

    private static final String TESTS = "io\\.sluice\\..*Stress";
    private static final Pattern SUMMARY = Pattern.compile(
            "Results: (\\d+) planned; (\\d+) passed, 0 failed, 0 soft errs, 0 hard errs");

    @TempDir
    Path dir;

    @Test
    void noForbiddenOutcomeIsObserved() throws IOException, InterruptedException {
        String java = Paths.get(System.getProperty("java.home"), "bin", "java").toString();
        Path output = dir.resolve("jcstress.out");
        Process process = new ProcessBuilder(java, "-Xmx256m", "-cp", System.getProperty("java.class.path"),
                "org.openjdk.jcstress.Main", "-t", TESTS, "-m", "sanity", "-r", dir.resolve("results").toString())
                .directory(dir.toFile()).redirectErrorStream(true).redirectOutput(output.toFile()).start();
        try {
            assertTrue(process.waitFor(4, TimeUnit.MINUTES), "jcstress did not finish in 4 minutes");
        } finally {
            process.destroyForcibly();
        }
        String report = Files.readString(output, StandardCharsets.UTF_8);
        assertEquals(0, process.exitValue(), "jcstress failed:\n" + report);
        // The last progress line, e.g. "(Results: 56 planned; 56 passed, 0 failed, 0 soft errs, 0 hard errs)".
        MatchResult last = SUMMARY.matcher(report).results().reduce((first, second) -> second).orElse(null);
        assertTrue(last != null, "jcstress printed no results:\n" + report);
        assertTrue(Integer.parseInt(last.group(1)) > 0, "jcstress ran no test:\n" + report);
        assertEquals(last.group(1), last.group(2), "not every planned run passed:\n" + report);
    }
}
