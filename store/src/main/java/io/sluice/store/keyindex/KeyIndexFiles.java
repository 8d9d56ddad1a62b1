package io.sluice.store.keyindex;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The key-index files of a store, oldest first; the newest is the one written.
 *
 * <p>Threads: the index thread is the only one that adds, rolls, checkpoints and deletes files; lookups run on
 * any thread. {@code unmapLock}: lookups hold its read lock while they read mappings; the index thread holds its
 * write lock only to unmap a deleted file (and at close), so no lookup ever touches unmapped memory.
 */
final class KeyIndexFiles {

    private static final Logger LOG = LoggerFactory.getLogger(KeyIndexFiles.class);

    private final KeyIndexSettings settings;
    private final CopyOnWriteArrayList<KeyIndexFile> files;
    private final ReentrantReadWriteLock unmapLock = new ReentrantReadWriteLock();
    /** Where indexing resumes: recovery's answer, a record boundary. */
    private final long resumePosition;
    private final int damagedFiles;

    private KeyIndexFiles(KeyIndexSettings settings, List<KeyIndexFile> files, long resumePosition,
                          int damagedFiles) {
        this.settings = settings;
        this.files = new CopyOnWriteArrayList<>(files);
        this.resumePosition = resumePosition;
        this.damagedFiles = damagedFiles;
    }

    /**
     * Opens the files in {@code settings.dir()} and finds where indexing resumes: the newest file's checkpoint.
     * A damaged file is deleted with every later one, and its part of the log is indexed again; files wholly
     * below {@code logMinPosition} are deleted; the resume position is kept within [logMinPosition,
     * logEndPosition].
     *
     * @param logMinPosition the CommitLog's first position (a record boundary)
     * @param logEndPosition the end of the recovered CommitLog (a record boundary)
     */
    static KeyIndexFiles open(KeyIndexSettings settings, long logMinPosition, long logEndPosition)
            throws IOException {
        Files.createDirectories(settings.dir());
        TreeMap<Long, Path> found = new TreeMap<>();
        try (Stream<Path> listing = Files.list(settings.dir())) {
            for (Path p : (Iterable<Path>) listing::iterator) {
                long begin = KeyIndexDescriptor.parseFileName(p.getFileName().toString());
                if (begin >= 0) {
                    found.put(begin, p);
                }
            }
        }
        List<KeyIndexFile> opened = new ArrayList<>();
        long resume = found.isEmpty() ? logMinPosition : found.firstKey();
        int damaged = 0;
        boolean dropRest = false;
        for (Path p : found.values()) {
            if (dropRest) {
                Files.delete(p);
                continue;
            }
            try {
                KeyIndexFile file = KeyIndexFile.open(p);
                opened.add(file);
                resume = file.endPosition();
                dropRest = !file.isSealed();
            } catch (KeyIndexDamagedException e) {
                LOG.warn("key index file damaged, indexing its part of the CommitLog again: {}", e.getMessage());
                damaged++;
                Files.delete(p);
                dropRest = true;
            }
        }
        KeyIndexFiles table = new KeyIndexFiles(settings, opened,
                Math.max(logMinPosition, Math.min(resume, logEndPosition)), damaged);
        table.deleteCoveredBelow(logMinPosition);
        return table;
    }

    long resumePosition() {
        return resumePosition;
    }

    int damagedFilesAtOpen() {
        return damagedFiles;
    }

    /**
     * The file to add {@code keys} keys of the record at {@code position} to: the newest, or a new one started at
     * {@code position} once the newest is full (it is sealed first). Index thread only.
     */
    KeyIndexFile writable(int keys, long position) throws IOException {
        KeyIndexFile last = files.isEmpty() ? null : files.get(files.size() - 1);
        if (last != null && !last.isSealed() && last.freeEntries() >= keys) {
            return last;
        }
        if (last != null && !last.isSealed()) {
            last.coverTo(position);
            last.seal();
        }
        KeyIndexFile created = KeyIndexFile.create(settings.dir(), position, settings.hashSlotsPerFile(),
                settings.entriesPerFile());
        files.add(created);
        return created;
    }

    /** Records that the newest file covers the log up to {@code position}. Index thread only. */
    void coverTo(long position) {
        if (!files.isEmpty()) {
            KeyIndexFile last = files.get(files.size() - 1);
            if (!last.isSealed()) {
                last.coverTo(position);
            }
        }
    }

    /** Writes the entries the newest file holds back ({@link KeyIndexFile#flush}). Index thread only. */
    void flush() {
        if (!files.isEmpty()) {
            files.get(files.size() - 1).flush();
        }
    }

    /** Checkpoints the newest file. Index thread only. */
    void checkpoint() {
        if (!files.isEmpty()) {
            KeyIndexFile last = files.get(files.size() - 1);
            if (!last.isSealed()) {
                last.checkpoint();
            }
        }
    }

    /**
     * Deletes the files whose every record lies below {@code logMinPosition} (retention deleted their segments).
     * The newest file is never deleted. Index thread only.
     *
     * @return files deleted
     */
    int deleteCoveredBelow(long logMinPosition) throws IOException {
        int deleted = 0;
        while (files.size() > 1 && files.get(1).beginPosition() <= logMinPosition) {
            KeyIndexFile oldest = files.remove(0);
            unmapLock.writeLock().lock();
            try {
                oldest.unmap();
            } finally {
                unmapLock.writeLock().unlock();
            }
            Files.delete(oldest.path());
            deleted++;
        }
        return deleted;
    }

    /** Looks {@code hash} up in every file, newest first, until {@code out} is full. Any thread. */
    void lookup(long hash, long beginMs, long endMs, KeyMatches out) {
        unmapLock.readLock().lock();
        try {
            KeyIndexFile[] snapshot = files.toArray(new KeyIndexFile[0]);
            for (int i = snapshot.length - 1; i >= 0 && !out.isFull(); i--) {
                snapshot[i].lookup(hash, beginMs, endMs, out);
            }
        } finally {
            unmapLock.readLock().unlock();
        }
    }

    int fileCount() {
        return files.size();
    }

    /** Unmaps every file (after a final checkpoint when {@code checkpointFirst}). Index thread stopped. */
    void close(boolean checkpointFirst) {
        if (checkpointFirst) {
            checkpoint();
        }
        unmapLock.writeLock().lock();
        try {
            for (KeyIndexFile f : files) {
                f.unmap();
            }
            files.clear();
        } finally {
            unmapLock.writeLock().unlock();
        }
    }
}
