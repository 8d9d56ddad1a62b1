package io.sluice.namesrv;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class NamesrvMainTest {

    @TempDir
    Path dir;

    private Path conf(String text) throws IOException {
        Path file = dir.resolve("namesrv.conf");
        Files.writeString(file, text, StandardCharsets.UTF_8);
        return file;
    }

    @Test
    void shouldUseTheDefaultsWithoutArguments() throws IOException {
        assertEquals(NamesrvSettings.defaults(), NamesrvMain.settingsFrom(new String[0]));
    }

    @Test
    void shouldReadTheConfigurationFile() throws IOException {
        Path file = conf("# a comment\nlistenPort=19876\nbrokerExpiryMs = 60000\n");

        NamesrvSettings settings = NamesrvMain.settingsFrom(new String[] {"-c", file.toString()});

        assertEquals(19876, settings.listenPort());
        assertEquals(60_000, settings.brokerExpiryMs());
        assertEquals(NamesrvSettings.defaults().scanIntervalMs(), settings.scanIntervalMs());
    }

    @Test
    void shouldNameTheFileAndTheUnknownKey() throws IOException {
        Path file = conf("listenPort=19876\nrocketmqHome=/opt\n");

        IllegalArgumentException error = assertThrows(IllegalArgumentException.class,
                () -> NamesrvMain.settingsFrom(new String[] {"-c", file.toString()}));

        assertTrue(error.getMessage().contains("namesrv.conf"), error.getMessage());
        assertTrue(error.getMessage().contains("'rocketmqHome'"), error.getMessage());
    }

    @Test
    void shouldRejectUnexpectedArguments() {
        assertThrows(IllegalArgumentException.class, () -> NamesrvMain.settingsFrom(new String[] {"-n", "x"}));
        assertThrows(IllegalArgumentException.class, () -> NamesrvMain.settingsFrom(new String[] {"-c"}));
    }

    @Test
    void shouldReportAMissingFile() {
        assertThrows(IOException.class,
                () -> NamesrvMain.settingsFrom(new String[] {"-c", dir.resolve("absent.conf").toString()}));
    }
}
