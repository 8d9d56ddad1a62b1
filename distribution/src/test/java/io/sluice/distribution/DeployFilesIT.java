package io.sluice.distribution;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.broker.config.BrokerConfigLoader;
import io.sluice.broker.config.BrokerSettings;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The deployment files shipped in {@code deploy/}: the systemd units pass {@code systemd-analyze verify} (with
 * {@code /opt/sluice} pointing at the assembled distribution), and the Dockerfile adds the tarball the build makes
 * and starts standalone with a configuration Sluice's own loader accepts. (No Docker daemon is assumed: the image
 * is not built here.)
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class DeployFilesIT {

    private static final Path DEPLOY = SluiceProcess.HOME.resolve("deploy");

    @TempDir
    Path dir;

    @Test
    void systemdUnitsVerify() throws Exception {
        Assumptions.assumeTrue(Files.isExecutable(Path.of("/usr/bin/systemd-analyze")), "systemd-analyze present");
        for (String unit : List.of("sluice-broker.service", "sluice-namesrv.service")) {
            String text = Files.readString(DEPLOY.resolve(unit), StandardCharsets.UTF_8)
                    .replace("/opt/sluice/", SluiceProcess.HOME.toAbsolutePath() + "/");
            Path copy = Files.writeString(dir.resolve(unit), text, StandardCharsets.UTF_8);
            Process verify = new ProcessBuilder("systemd-analyze", "verify", copy.toString())
                    .redirectErrorStream(true).start();
            assertTrue(verify.waitFor(60, TimeUnit.SECONDS), "systemd-analyze finished");
            String out = new String(verify.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertEquals(0, verify.exitValue(), unit + ": " + out);
            assertEquals("", out.strip(), unit + " verifies without warnings");
        }
    }

    @Test
    void theDockerfileAddsTheBuiltTarballAndAValidConfiguration() throws Exception {
        String dockerfile = Files.readString(DEPLOY.resolve("Dockerfile"), StandardCharsets.UTF_8);
        Matcher add = Pattern.compile("(?m)^ADD (\\S+) /opt/$").matcher(dockerfile);
        assertTrue(add.find(), dockerfile);
        String version = System.getProperty("sluice.version");
        Path tarball = SluiceProcess.HOME.resolveSibling(add.group(1).replace("${VERSION}", version));
        assertTrue(Files.isRegularFile(tarball), "the Dockerfile adds " + tarball + ", which the build made");
        assertTrue(dockerfile.contains("EXPOSE 9876 10911 5557"), "the default ports are exposed");

        Matcher printf = Pattern.compile("printf '([^']*)'").matcher(dockerfile);
        assertTrue(printf.find(), dockerfile);
        String conf = printf.group(1).replace("\\\\n", "\n").replace("%s", "10.0.0.5");
        BrokerSettings settings = BrokerConfigLoader.parse(conf);
        assertEquals("0.0.0.0", settings.bindAddress());
        assertEquals("10.0.0.5", settings.brokerIp1());
        assertTrue(dockerfile.contains("sluice standalone -c /tmp/broker.conf"), dockerfile);
    }
}
