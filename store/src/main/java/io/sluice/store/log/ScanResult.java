package io.sluice.store.log;

import io.sluice.store.DispatchEntry;

/**
 * One step of a walk over the CommitLog.
 *
 * <p>Immutable; thread-safe.
 *
 * @param status       what was found
 * @param position     the position examined
 * @param entry        VALID only: what dispatch needs from the record; {@code null} otherwise
 * @param sizeBytes    VALID: the record's TOTALSIZE; END_OF_SEGMENT: the blank's TOTALSIZE; else 0
 * @param nextPosition VALID and END_OF_SEGMENT: where the next record starts; otherwise {@code position}
 * @param reason       CORRUPT: what is wrong; otherwise empty
 */
public record ScanResult(ScanStatus status, long position, DispatchEntry entry, int sizeBytes, long nextPosition,
                         String reason) {

    static ScanResult valid(DispatchEntry entry) {
        return new ScanResult(ScanStatus.VALID, entry.position(), entry, entry.sizeBytes(),
                entry.position() + entry.sizeBytes(), "");
    }

    static ScanResult endOfSegment(long position, int blankBytes, long nextSegmentStart) {
        return new ScanResult(ScanStatus.END_OF_SEGMENT, position, null, blankBytes, nextSegmentStart, "");
    }

    static ScanResult noMoreData(long position) {
        return new ScanResult(ScanStatus.NO_MORE_DATA, position, null, 0, position, "");
    }

    static ScanResult corrupt(long position, String reason) {
        return new ScanResult(ScanStatus.CORRUPT, position, null, 0, position, reason);
    }

    static ScanResult positionDeleted(long position) {
        return new ScanResult(ScanStatus.POSITION_DELETED, position, null, 0, position, "");
    }
}
