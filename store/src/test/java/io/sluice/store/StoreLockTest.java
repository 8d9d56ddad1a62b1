package io.sluice.store;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StoreLockTest {

    @TempDir
    Path dir;

    @Test
    void shouldAllowOneHolderAtATime() throws IOException {
        StoreLock first = StoreLock.acquire(dir);
        IOException e = assertThrows(IOException.class, () -> StoreLock.acquire(dir));
        assertTrue(e.getMessage().contains(dir.toString()), e.getMessage());
        assertTrue(e.getMessage().contains("in use by another store"), e.getMessage());

        first.close();
        first.close();
        StoreLock.acquire(dir).close();
    }

    @Test
    void shouldWriteThePidIntoTheAbortMarkerAndRemoveIt() throws IOException {
        AbortMarker marker = new AbortMarker(dir);
        assertFalse(marker.isPresent());

        marker.create();

        assertTrue(marker.isPresent());
        assertTrue(Files.readString(marker.file(), StandardCharsets.US_ASCII)
                .equals(Long.toString(ProcessHandle.current().pid())));
        marker.delete();
        assertFalse(marker.isPresent());
        marker.delete();
    }
}
