package io.sluice.distribution;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The release tarball, {@code target/sluice-VERSION.tar.gz}, unpacked as a user would: one versioned top directory
 * with the launcher, the libraries (and no test framework among them), the configuration and the documents, the
 * licence and a NOTICE naming every bundled library; the unpacked launcher runs and reports the version.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class TarballIT {

    /** Test frameworks and their helpers: none belongs in the broker's lib/. */
    static final String TEST_JARS = "(junit|opentest4j|apiguardian|jqwik|assertj|hamcrest).*";
    /**
     * Test runners: none belongs in lib/bench/ either (Hamcrest does: Apache RocketMQ's client needs it at run time,
     * through Awaitility).
     */
    static final String TEST_RUNNERS = "(junit|opentest4j|jqwik).*";

    private static final String VERSION = System.getProperty("sluice.version");
    private static final Path TARBALL = Path.of(System.getProperty("sluice.tarball",
            "target/sluice-" + VERSION + ".tar.gz"));

    @TempDir
    Path dir;

    @Test
    void theVersionedTarballUnpacksToARunnableTree() throws Exception {
        assertTrue(Files.isRegularFile(TARBALL), TARBALL + " exists");
        assertTrue(TARBALL.getFileName().toString().equals("sluice-" + VERSION + ".tar.gz"), TARBALL.toString());
        Process untar = new ProcessBuilder("tar", "xzf", TARBALL.toAbsolutePath().toString(), "-C", dir.toString())
                .redirectErrorStream(true).start();
        assertTrue(untar.waitFor(60, TimeUnit.SECONDS), "tar finished");
        assertEquals(0, untar.exitValue(), new String(untar.getInputStream().readAllBytes(), StandardCharsets.UTF_8));

        assertEquals(List.of("sluice-" + VERSION), names(dir), "one versioned top directory");
        Path home = dir.resolve("sluice-" + VERSION);
        assertTrue(Files.isExecutable(home.resolve("bin/sluice")), "bin/sluice is executable");
        List<String> lib = names(home.resolve("lib"));
        assertTrue(lib.contains("sluice-store-" + VERSION + ".jar"), lib.toString());
        assertTrue(lib.stream().anyMatch(n -> n.startsWith("netty-transport-")), lib.toString());
        lib.forEach(jar -> assertFalse(jar.matches(TEST_JARS), "a test jar is in lib/: " + jar));
        names(home.resolve("lib/bench")).forEach(jar -> assertFalse(jar.matches(TEST_RUNNERS),
                "a test runner is in lib/bench/: " + jar));
        assertTrue(Files.readString(home.resolve("LICENSE")).contains("Apache License")
                && Files.readString(home.resolve("LICENSE")).contains("Version 2.0, January 2004"), "LICENSE");
        String notice = Files.readString(home.resolve("NOTICE"));
        assertTrue(notice.startsWith("Sluice\nCopyright 2026 the Sluice authors\n"), notice);
        assertEquals(List.of(), jarsWithoutNotice(home, notice), "bundled jars NOTICE does not name");
        for (String file : List.of("conf/broker.conf", "conf/namesrv.conf", "conf/logback.xml", "docs/metrics.md",
                "docs/sluice-grafana-dashboard.json", "docs/wire-protocol.md")) {
            assertTrue(Files.size(home.resolve(file)) > 0, file);
        }

        Process version = new ProcessBuilder(home.resolve("bin/sluice").toString(), "--version")
                .redirectErrorStream(true).start();
        assertTrue(version.waitFor(60, TimeUnit.SECONDS), "sluice --version finished");
        String out = new String(version.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, version.exitValue(), out);
        assertTrue(out.contains(VERSION), out);
    }

    /**
     * The jars of lib/ and lib/bench/ that no entry of NOTICE's list covers. An entry is a line {@code - PATTERN,
     * PATTERN...: text} whose patterns are jar names with {@code *} for any text.
     */
    static List<String> jarsWithoutNotice(Path home, String notice) throws IOException {
        List<Pattern> covered = new ArrayList<>();
        for (String line : notice.lines().toList()) {
            int colon = line.indexOf(": ");
            if (line.startsWith("- ") && colon > 0) {
                for (String glob : line.substring(2, colon).split(", ")) {
                    covered.add(Pattern.compile(Pattern.quote(glob).replace("*", "\\E.*\\Q")));
                }
            }
        }
        assertTrue(covered.size() > 10, "NOTICE lists the bundled libraries: " + covered);
        List<String> missing = new ArrayList<>();
        for (String dirName : List.of("lib", "lib/bench")) {
            for (String jar : names(home.resolve(dirName))) {
                if (jar.endsWith(".jar") && covered.stream().noneMatch(p -> p.matcher(jar).matches())) {
                    missing.add(dirName + "/" + jar);
                }
            }
        }
        return missing;
    }

    private static List<String> names(Path directory) throws IOException {
        try (Stream<Path> files = Files.list(directory)) {
            return files.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }
}
