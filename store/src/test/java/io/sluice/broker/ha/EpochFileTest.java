package io.sluice.broker.ha;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The epoch file: durable appends, recovery of a torn or damaged last record, refusal of damage before the end. */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class EpochFileTest {

    @TempDir
    Path dir;

    private Path file() {
        return dir.resolve(EpochFileDescriptor.FILE_NAME);
    }

    @Test
    void appendsSurviveReopening() throws IOException {
        EpochFile epochs = EpochFile.open(dir);
        epochs.append(1, 0);
        epochs.append(2, 4096);
        assertThrows(IllegalArgumentException.class, () -> epochs.append(2, 8192), "epochs only rise");
        assertEquals(List.of(new EpochEntry(1, 0), new EpochEntry(2, 4096)), EpochFile.open(dir).entries());
        assertEquals(2 * EpochFileDescriptor.RECORD_BYTES, Files.size(file()));
    }

    @Test
    void anEpochStartingBeyondTheNewStartIsDroppedOnAppend() throws IOException {
        EpochFile epochs = EpochFile.open(dir);
        epochs.replaceAll(List.of(new EpochEntry(1, 0), new EpochEntry(3, 9000)));
        epochs.append(4, 5000);
        assertEquals(List.of(new EpochEntry(1, 0), new EpochEntry(4, 5000)), EpochFile.open(dir).entries());
    }

    @Test
    void aTornLastRecordIsDropped() throws IOException {
        EpochFile epochs = EpochFile.open(dir);
        epochs.append(1, 0);
        epochs.append(2, 100);
        Files.write(file(), new byte[] {0x53, 0x4C, 0x45}, StandardOpenOption.APPEND);
        assertEquals(List.of(new EpochEntry(1, 0), new EpochEntry(2, 100)), EpochFile.open(dir).entries());
        assertEquals(2 * EpochFileDescriptor.RECORD_BYTES, Files.size(file()), "the torn bytes are cut");
    }

    @Test
    void aDamagedLastRecordIsDroppedAndDamageBeforeTheEndIsRefused() throws IOException {
        EpochFile epochs = EpochFile.open(dir);
        epochs.append(1, 0);
        epochs.append(2, 100);
        byte[] bytes = Files.readAllBytes(file());
        bytes[EpochFileDescriptor.RECORD_BYTES + EpochFileDescriptor.START_POSITION_OFFSET] ^= 1;
        Files.write(file(), bytes);
        assertEquals(List.of(new EpochEntry(1, 0)), EpochFile.open(dir).entries());

        EpochFile again = EpochFile.open(dir);
        again.append(2, 100);
        bytes = Files.readAllBytes(file());
        bytes[EpochFileDescriptor.EPOCH_OFFSET] ^= 1;
        Files.write(file(), bytes);
        IOException refused = assertThrows(IOException.class, () -> EpochFile.open(dir));
        assertTrue(refused.getMessage().contains("damaged at record 0"), refused.getMessage());
    }

    @Test
    void truncationPointIsTheEndOfTheLatestSharedEpoch() {
        List<EpochEntry> oldMaster = List.of(new EpochEntry(1, 0));
        List<EpochEntry> newMaster = List.of(new EpochEntry(1, 0), new EpochEntry(2, 700));
        assertEquals(700, EpochFile.truncationPoint(oldMaster, 900, newMaster, 1200),
                "the old master drops what it wrote after the new master's epoch began");
        assertEquals(650, EpochFile.truncationPoint(oldMaster, 650, newMaster, 1200), "never beyond its own end");
        assertEquals(1200, EpochFile.truncationPoint(newMaster, 1500, newMaster, 1200),
                "same epochs: the shorter log's end");
        assertEquals(0, EpochFile.truncationPoint(List.of(), 300, newMaster, 1200), "nothing shared: start over");
        List<EpochEntry> third = List.of(new EpochEntry(1, 0), new EpochEntry(2, 700), new EpochEntry(3, 1000));
        assertEquals(1000, EpochFile.truncationPoint(newMaster, 1100, third, 1300));
    }
}
