package io.sluice.benchmark.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A peer's class path comes from one Maven run on a generated pom, and is cached: reused while every jar it names
 * exists, resolved again once one is gone; a failed resolution says what ran and what Maven printed.
 */
@Timeout(60)
class MavenClasspathTest {

    @TempDir
    Path dir;

    private Path jarA;
    private Path jarB;
    private Path calls;
    private Path fakeMaven;

    @BeforeEach
    void writeFakeMaven() throws IOException {
        jarA = Files.createFile(dir.resolve("a.jar"));
        jarB = Files.createFile(dir.resolve("b.jar"));
        calls = dir.resolve("calls.txt");
        // Stands in for mvn: logs its arguments, then writes the class path where -Dmdep.outputFile says.
        fakeMaven = script("fake-mvn", "#!/bin/sh\n"
                + "echo \"$@\" >> '" + calls + "'\n"
                + "for arg in \"$@\"; do case \"$arg\" in -Dmdep.outputFile=*) out=\"${arg#-Dmdep.outputFile=}\";;"
                + " esac; done\n"
                + "printf '%s' '" + jarA + File.pathSeparator + jarB + "' > \"$out\"\n");
    }

    @Test
    void aClassPathIsResolvedOnceFromAGeneratedPomAndThenReused() throws Exception {
        Path cache = dir.resolve("cache");
        String first = MavenClasspath.resolve("org.example", "peer-server", "1.2.3", cache, fakeMaven.toString());
        assertEquals(jarA + File.pathSeparator + jarB, first);
        String pom = Files.readString(cache.resolve("peer-server-1.2.3").resolve("pom.xml"), StandardCharsets.UTF_8);
        assertTrue(pom.contains("<groupId>org.example</groupId>")
                && pom.contains("<artifactId>peer-server</artifactId>") && pom.contains("<version>1.2.3</version>"), pom);
        List<String> invocations = Files.readAllLines(calls);
        assertEquals(1, invocations.size());
        assertTrue(invocations.get(0).contains("maven-dependency-plugin:3.8.1:build-classpath")
                && invocations.get(0).contains("-Dmdep.includeScope=runtime"), invocations.get(0));

        assertEquals(first, MavenClasspath.resolve("org.example", "peer-server", "1.2.3", cache,
                fakeMaven.toString()));
        assertEquals(1, Files.readAllLines(calls).size(), "the cached class path was reused");
    }

    @Test
    void aCachedClassPathNamingAMissingJarIsResolvedAgain() throws Exception {
        Path cache = dir.resolve("cache");
        MavenClasspath.resolve("org.example", "peer", "1", cache, fakeMaven.toString());
        Files.delete(jarB);
        MavenClasspath.resolve("org.example", "peer", "1", cache, fakeMaven.toString());
        assertEquals(2, Files.readAllLines(calls).size());
        MavenClasspath.resolve("org.example", "peer", "2", cache, fakeMaven.toString());
        assertEquals(3, Files.readAllLines(calls).size(), "another version has its own cache");
    }

    @Test
    void aFailedResolutionNamesTheCommandAndWhatMavenPrinted() throws Exception {
        Path failing = script("failing-mvn", "#!/bin/sh\necho 'Could not resolve org.example:nope:9'\nexit 3\n");
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> MavenClasspath.resolve(
                "org.example", "nope", "9", dir.resolve("cache"), failing.toString()));
        assertTrue(e.getMessage().startsWith("resolving org.example:nope:9 with '" + failing), e.getMessage());
        assertTrue(e.getMessage().contains("(exit 3): Could not resolve org.example:nope:9"), e.getMessage());
    }

    private Path script(String name, String text) throws IOException {
        Path path = dir.resolve(name);
        Files.writeString(path, text, StandardCharsets.UTF_8);
        Files.setPosixFilePermissions(path, PosixFilePermissions.fromString("rwx------"));
        return path;
    }
}
