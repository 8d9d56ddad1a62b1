package io.sluice.store.log;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.OptionalLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The ordered, contiguous list of a log's segments. Adjacent segments differ by exactly {@code segmentBytes}
 * in start position.
 *
 * <p>Thread-safety: copy-on-write. Lookups read a volatile array snapshot and never block; mutations (roll at
 * the tail, retention at the head, truncation) are serialized by this object's monitor.
 */
final class SegmentChain {

    private static final Logger LOG = LoggerFactory.getLogger(SegmentChain.class);

    private static final MappedSegment[] EMPTY = new MappedSegment[0];

    private final int segmentBytes;
    private volatile MappedSegment[] segments = EMPTY;

    SegmentChain(int segmentBytes) {
        this.segmentBytes = segmentBytes;
    }

    /** A regular file named like a segment. */
    private static boolean isSegmentFile(Path p) {
        return MappedSegment.isSegmentFileName(p.getFileName().toString()) && Files.isRegularFile(p);
    }

    /**
     * The size of the first segment file of {@code dir} by name, which {@link #load} holds every other one to;
     * empty when {@code dir} has none or does not exist.
     */
    static OptionalLong firstSegmentBytes(Path dir) throws IOException {
        if (!Files.isDirectory(dir)) {
            return OptionalLong.empty();
        }
        Path first = null;
        try (DirectoryStream<Path> stream = Files.newDirectoryStream(dir)) {
            for (Path p : stream) {
                String name = p.getFileName().toString();
                if (isSegmentFile(p) && (first == null || name.compareTo(first.getFileName().toString()) < 0)) {
                    first = p;
                }
            }
        }
        return first == null ? OptionalLong.empty() : OptionalLong.of(Files.size(first));
    }

    /**
     * Maps every segment file of {@code dir}. Files that are not named like segments are ignored, except
     * interrupted creations and files kept for reuse ({@link SegmentRecycler}), which are deleted.
     *
     * @throws IOException naming the file when a size is wrong or two neighbours are not contiguous
     */
    static SegmentChain load(Path dir, int segmentBytes) throws IOException {
        List<Path> files = new ArrayList<>();
        try (DirectoryStream<Path> stream = Files.newDirectoryStream(dir)) {
            for (Path p : stream) {
                String name = p.getFileName().toString();
                if (isSegmentFile(p)) {
                    files.add(p);
                } else if (name.endsWith(MappedSegment.TEMP_SUFFIX) && MappedSegment.isSegmentFileName(
                        name.substring(0, name.length() - MappedSegment.TEMP_SUFFIX.length()))) {
                    LOG.warn("deleting {}: a segment whose creation was interrupted", p);
                    Files.delete(p);
                } else if (SegmentRecycler.isRecycledFileName(name)) {
                    LOG.info("deleting {}: a removed segment kept for reuse before the restart", p);
                    Files.delete(p);
                }
            }
        }
        files.sort(null);
        SegmentChain chain = new SegmentChain(segmentBytes);
        List<MappedSegment> loaded = new ArrayList<>(files.size());
        for (Path file : files) {
            MappedSegment segment = MappedSegment.open(file, segmentBytes);
            if (segment.startPosition() % segmentBytes != 0) {
                throw new IOException("segment " + file + " does not start at a multiple of segmentBytes "
                        + segmentBytes);
            }
            if (!loaded.isEmpty() && loaded.get(loaded.size() - 1).endPosition() != segment.startPosition()) {
                throw new IOException("segment " + file + " does not follow "
                        + loaded.get(loaded.size() - 1).file() + ": the log has a hole");
            }
            loaded.add(segment);
        }
        chain.segments = loaded.toArray(EMPTY);
        return chain;
    }

    int segmentBytes() {
        return segmentBytes;
    }

    boolean isEmpty() {
        return segments.length == 0;
    }

    int size() {
        return segments.length;
    }

    /** A snapshot, oldest first. */
    MappedSegment[] snapshot() {
        return segments;
    }

    /** The segment holding {@code position}, or {@code null} when none does (deleted, or not created yet). */
    MappedSegment find(long position) {
        MappedSegment[] s = segments;
        if (s.length == 0 || position < s[0].startPosition()) {
            return null;
        }
        long index = (position - s[0].startPosition()) / segmentBytes;
        return index < s.length ? s[(int) index] : null;
    }

    /** The newest segment, or {@code null} when there is none. */
    MappedSegment last() {
        MappedSegment[] s = segments;
        return s.length == 0 ? null : s[s.length - 1];
    }

    /** Start of the oldest segment, or {@code emptyDefault} when there is none. */
    long minPosition(long emptyDefault) {
        MappedSegment[] s = segments;
        return s.length == 0 ? emptyDefault : s[0].startPosition();
    }

    /** Appends a segment that must start where the newest one ends. */
    synchronized void append(MappedSegment segment) {
        MappedSegment[] s = segments;
        if (s.length > 0 && s[s.length - 1].endPosition() != segment.startPosition()) {
            throw new IllegalStateException(segment + " does not follow " + s[s.length - 1]);
        }
        MappedSegment[] next = Arrays.copyOf(s, s.length + 1);
        next[s.length] = segment;
        segments = next;
    }

    /** Removes the oldest segment if it is {@code expected} and not the only one. */
    synchronized boolean removeOldest(MappedSegment expected) {
        MappedSegment[] s = segments;
        if (s.length < 2 || s[0] != expected) {
            return false;
        }
        segments = Arrays.copyOfRange(s, 1, s.length);
        return true;
    }

    /** Removes and returns every segment starting at or after {@code position}. */
    synchronized List<MappedSegment> removeFrom(long position) {
        MappedSegment[] s = segments;
        int keep = s.length;
        while (keep > 0 && s[keep - 1].startPosition() >= position) {
            keep--;
        }
        List<MappedSegment> removed = List.of(Arrays.copyOfRange(s, keep, s.length));
        segments = Arrays.copyOf(s, keep);
        return removed;
    }
}
