package io.sluice.benchmark.load;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Resolves the runtime class path of a peer server (Apache RocketMQ, Kafka) from Maven Central without touching
 * the harness's own class path: writes a tiny pom that depends on the artifact and runs
 * {@code mvn -q dependency:build-classpath} on it. Jars land in the local Maven repository (~/.m2); the resulting
 * class path is cached in {@code cacheDir} and reused while every entry still exists. The {@code mvn} command is
 * {@code $MAVEN_CMD}, else {@code mvn} on the PATH. Stateless.
 */
final class MavenClasspath {

    private MavenClasspath() {
    }

    static String resolve(String groupId, String artifactId, String version, Path cacheDir, String mavenCommand)
            throws IOException, InterruptedException {
        Path dir = cacheDir.resolve(artifactId + "-" + version);
        Path output = dir.resolve("classpath.txt");
        if (Files.exists(output)) {
            String cached = Files.readString(output, StandardCharsets.UTF_8).trim();
            if (!cached.isEmpty() && Arrays.stream(cached.split(File.pathSeparator))
                    .allMatch(entry -> Files.exists(Path.of(entry)))) {
                return cached;
            }
        }
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("pom.xml"), """
                <?xml version="1.0" encoding="UTF-8"?>
                <project xmlns="http://maven.apache.org/POM/4.0.0">
                  <modelVersion>4.0.0</modelVersion>
                  <groupId>io.sluice.bench.peer</groupId>
                  <artifactId>%s-peer</artifactId>
                  <version>1</version>
                  <packaging>pom</packaging>
                  <dependencies>
                    <dependency>
                      <groupId>%s</groupId>
                      <artifactId>%s</artifactId>
                      <version>%s</version>
                    </dependency>
                  </dependencies>
                </project>
                """.formatted(artifactId, groupId, artifactId, version), StandardCharsets.UTF_8);
        List<String> command = new ArrayList<>(List.of(mavenCommand, "-B", "-q", "-f",
                dir.resolve("pom.xml").toString(),
                "org.apache.maven.plugins:maven-dependency-plugin:3.8.1:build-classpath",
                "-Dmdep.outputFile=" + output, "-Dmdep.includeScope=runtime"));
        Path log = dir.resolve("mvn.log");
        Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile())).start();
        if (!process.waitFor(10, TimeUnit.MINUTES)) {
            process.destroyForcibly();
            throw new IllegalStateException("resolving " + groupId + ":" + artifactId + ":" + version
                    + " took more than 10 minutes; see " + log);
        }
        if (process.exitValue() != 0 || !Files.exists(output)) {
            throw new IllegalStateException("resolving " + groupId + ":" + artifactId + ":" + version
                    + " with '" + String.join(" ", command) + "' failed (exit " + process.exitValue() + "): "
                    + Files.readString(log, StandardCharsets.UTF_8).strip());
        }
        return Files.readString(output, StandardCharsets.UTF_8).trim();
    }
}
