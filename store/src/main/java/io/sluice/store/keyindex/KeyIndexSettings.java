package io.sluice.store.keyindex;

import java.nio.file.Path;
import java.util.Objects;

/**
 * Settings of the key index. Validated once, at construction; every failure names the bad value.
 *
 * <p>Immutable; thread-safe.
 *
 * @param dir                  where the index files live ({@code <store root>/index})
 * @param enabled              whether keys are indexed at all (Apache {@code messageIndexEnable}); without the index
 *                             QUERY_MESSAGE finds nothing
 * @param hashSlotsPerFile     hash slots of a new file (Apache {@code maxHashSlotNum}, 5,000,000); files keep the
 *                             count they were created with
 * @param entriesPerFile       key entries of a new file (Apache {@code maxIndexNum}, 20,000,000); a full file is
 *                             sealed and the next one started
 * @param checkpointIntervalMs how often the newest file is forced and its checkpoint written; bounds how much of the
 *                             CommitLog is indexed again after a crash
 */
public record KeyIndexSettings(Path dir, boolean enabled, int hashSlotsPerFile, int entriesPerFile,
                               int checkpointIntervalMs) {

    public static final int DEFAULT_HASH_SLOTS_PER_FILE = 5_000_000;
    public static final int DEFAULT_ENTRIES_PER_FILE = 20_000_000;
    public static final int DEFAULT_CHECKPOINT_INTERVAL_MS = 1_000;
    /** Name of the index directory under the store root. */
    public static final String DIR_NAME = "index";

    public KeyIndexSettings {
        Objects.requireNonNull(dir, "dir");
        if (hashSlotsPerFile < 1 || hashSlotsPerFile > KeyIndexDescriptor.MAX_HASH_SLOTS) {
            throw new IllegalArgumentException("hashSlotsPerFile must be in [1, " + KeyIndexDescriptor.MAX_HASH_SLOTS
                    + "], was " + hashSlotsPerFile);
        }
        if (entriesPerFile < KeyIndexDescriptor.MIN_ENTRIES || entriesPerFile > KeyIndexDescriptor.MAX_ENTRIES) {
            throw new IllegalArgumentException("entriesPerFile must be in [" + KeyIndexDescriptor.MIN_ENTRIES + ", "
                    + KeyIndexDescriptor.MAX_ENTRIES + "], was " + entriesPerFile);
        }
        if (checkpointIntervalMs < 1) {
            throw new IllegalArgumentException("checkpointIntervalMs must be >= 1, was " + checkpointIntervalMs);
        }
    }

    /** Apache's sizes, enabled, in {@code <storeRoot>/index}. */
    public static KeyIndexSettings defaults(Path storeRoot) {
        return new KeyIndexSettings(storeRoot.resolve(DIR_NAME), true, DEFAULT_HASH_SLOTS_PER_FILE,
                DEFAULT_ENTRIES_PER_FILE, DEFAULT_CHECKPOINT_INTERVAL_MS);
    }

    public KeyIndexSettings withEnabled(boolean value) {
        return new KeyIndexSettings(dir, value, hashSlotsPerFile, entriesPerFile, checkpointIntervalMs);
    }

    public KeyIndexSettings withSizes(int hashSlots, int entries) {
        return new KeyIndexSettings(dir, enabled, hashSlots, entries, checkpointIntervalMs);
    }

    public KeyIndexSettings withCheckpointIntervalMs(int value) {
        return new KeyIndexSettings(dir, enabled, hashSlotsPerFile, entriesPerFile, value);
    }
}
