package io.sluice.store.log;

import io.sluice.format.RecordDescriptor;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RecordParserTest {

    @TempDir
    Path dir;

    private byte[] record;
    private long position;

    @BeforeEach
    void writeOneRecord() throws IOException {
        try (CommitLog log = LogFixture.openRecovered(dir)) {
            LogFixture.appendOk(log, LogFixture.draft("P", 0, "first"));
            AppendResult r = LogFixture.appendOk(log, LogFixture.draft("P", 0, "second"));
            record = LogFixture.bytes(log.readRecord(r.position(), r.wroteBytes()).buffer());
            position = r.position();
        }
    }

    private ScanResult parse(byte[] bytes, long at) {
        return RecordParser.parse(ByteBuffer.wrap(bytes), at, true);
    }

    @Test
    void shouldAcceptTheRecordAtItsOwnPosition() {
        ScanResult r = parse(record, position);
        assertEquals(ScanStatus.VALID, r.status());
        assertEquals(record.length, r.sizeBytes());
        assertEquals(position + record.length, r.nextPosition());
        assertEquals(1, r.entry().queueOffset());
    }

    @Test
    void shouldCallAStaleCopyAtAnotherPositionCorrupt() {
        ScanResult r = parse(record, position + 4096);
        assertEquals(ScanStatus.CORRUPT, r.status());
        assertTrue(r.reason().contains("PHYSICALOFFSET " + position), r.reason());
    }

    @Test
    void shouldNameEachKindOfDamage() {
        byte[] badMagic = record.clone();
        ByteBuffer.wrap(badMagic).putInt(4, 0x12345678);
        assertTrue(parse(badMagic, position).reason().contains("illegal magic 0x12345678"));

        byte[] badSize = java.util.Arrays.copyOf(record, record.length + 1);
        ByteBuffer.wrap(badSize).putInt(0, record.length + 1);
        assertTrue(parse(badSize, position).reason().contains("fields add up to " + record.length));

        byte[] badCrc = record.clone();
        badCrc[RecordDescriptor.BODY_CRC_OFFSET] ^= 1;
        assertTrue(parse(badCrc, position).reason().startsWith("BODYCRC"));

        byte[] hugeBody = record.clone();
        ByteBuffer.wrap(hugeBody).putInt(RecordDescriptor.bodyLengthOffset(0), Integer.MAX_VALUE);
        assertTrue(parse(hugeBody, position).reason().startsWith("BODYLENGTH " + Integer.MAX_VALUE));

        byte[] tooLong = record.clone();
        ByteBuffer.wrap(tooLong).putInt(0, 1 << 30);
        assertEquals(ScanStatus.CORRUPT, parse(tooLong, position).status());
    }

    @Test
    void shouldSeeZerosAndShortReadsAsNoMoreData() {
        assertEquals(ScanStatus.NO_MORE_DATA, parse(new byte[64], 0).status());
        assertEquals(ScanStatus.NO_MORE_DATA, parse(new byte[3], 0).status());
        UnsafeBuffer buffer = new UnsafeBuffer(record);
        ScanResult partial = RecordParser.parse(buffer, 0, record.length - 1, 1 << 20, position, true);
        assertEquals(ScanStatus.NO_MORE_DATA, partial.status(), "not yet fully published");
    }

    @Test
    void shouldSeeAZeroTotalSizeAsNoMoreDataWhateverFollows() {
        byte[] unpublished = record.clone();
        ByteBuffer.wrap(unpublished).putInt(RecordDescriptor.TOTAL_SIZE_OFFSET, 0);
        assertEquals(ScanStatus.NO_MORE_DATA, parse(unpublished, position).status(), "a record not yet published");
        byte[] blank = new byte[100];
        ByteBuffer.wrap(blank).putInt(RecordDescriptor.MAGIC_OFFSET, RecordDescriptor.MAGIC_BLANK);
        assertEquals(ScanStatus.NO_MORE_DATA, parse(blank, 1000).status(), "a blank record not yet published");
    }

    @Test
    void shouldRecogniseTheBlankOnlyWhenItReachesTheSegmentEnd() {
        byte[] tail = new byte[100];
        ByteBuffer.wrap(tail).putInt(0, 100).putInt(4, RecordDescriptor.MAGIC_BLANK);
        ScanResult end = parse(tail, 1000);
        assertEquals(ScanStatus.END_OF_SEGMENT, end.status());
        assertEquals(1100, end.nextPosition());
        ByteBuffer.wrap(tail).putInt(0, 60);
        assertEquals(ScanStatus.CORRUPT, parse(tail, 1000).status());
    }

    @Test
    void settingsShouldNameTheBadValue() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> LogFixture.settings(dir).segmentBytes(90_000).build());
        assertTrue(e.getMessage().contains("segmentBytes 90000 cannot hold the largest record"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
                () -> LogFixture.settings(dir).flushIntervalMs(0).build());
        assertTrue(e.getMessage().contains("flushIntervalMs must be >= 1, was 0"), e.getMessage());
    }
}
