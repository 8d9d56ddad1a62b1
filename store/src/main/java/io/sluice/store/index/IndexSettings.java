package io.sluice.store.index;

import java.nio.file.Path;

/**
 * Settings of the consume-queue index. Validated once, at construction; every failure names the bad value.
 *
 * <p>Immutable; thread-safe.
 *
 * @param rootDir               store root; queues live in {@code <rootDir>/consumequeue/<topic>/<queueId>/} and
 *                              {@code <rootDir>/batchconsumequeue/<topic>/<queueId>/}
 * @param simpleCqSlotsPerFile  slots per SimpleCQ file (20 bytes each); default 300,000 = 6,000,000 bytes. Must
 *                              not change on an existing store (files of another size refuse to load)
 * @param batchCqSlotsPerFile   slots per BatchCQ file (46 bytes each); default 300,000 = 13,800,000 bytes. Same
 *                              caveat
 * @param maxQueuesPerTopic     queue ids accepted are {@code [0, maxQueuesPerTopic)}; default 1024
 * @param recoveryScanFiles     how many of a queue's newest files are checked slot by slot at open (older files
 *                              are trusted to be complete); default 3, as upstream
 * @param batchCqUnitMaxBytes   BatchCQ: a record that starts where its queue's last slot ends joins that slot, up to
 *                              this many bytes (see {@link BatchConsumeQueue}); 0 (the default) gives every record
 *                              its own slot
 * @param batchCqSpanMaxBytes   BatchCQ: a record of the queue that starts after its last slot's end, past other
 *                              queues' records, still joins that slot while the slot's bytes from its first record to
 *                              the end of this one stay within this many bytes (and within one CommitLog segment);
 *                              0 (the default) joins only records back to back. Needs {@code logSegmentBytes}
 * @param logSegmentBytes       the CommitLog's segment size, which a slot's bytes never cross; 0 when
 *                              {@code batchCqSpanMaxBytes} is 0
 */
public record IndexSettings(Path rootDir, int simpleCqSlotsPerFile, int batchCqSlotsPerFile, int maxQueuesPerTopic,
                            int recoveryScanFiles, int batchCqUnitMaxBytes, int batchCqSpanMaxBytes,
                            int logSegmentBytes) {

    public static final int DEFAULT_SIMPLE_CQ_SLOTS_PER_FILE = ConsumeQueueDescriptor.DEFAULT_SLOTS_PER_FILE;
    public static final int DEFAULT_BATCH_CQ_SLOTS_PER_FILE = BatchConsumeQueueDescriptor.DEFAULT_SLOTS_PER_FILE;
    public static final int DEFAULT_MAX_QUEUES_PER_TOPIC = 1024;
    public static final int DEFAULT_RECOVERY_SCAN_FILES = 3;
    /** Upper bound of {@code batchCqUnitMaxBytes}: a pull answers at least one whole slot. */
    public static final int MAX_BATCH_CQ_UNIT_BYTES = 64 * 1024 * 1024;
    /** Upper bound of {@code batchCqSpanMaxBytes}: a pull walks the record headers of a slot's whole span. */
    public static final int MAX_BATCH_CQ_SPAN_BYTES = 64 * 1024 * 1024;
    /** Upper bound of {@code maxQueuesPerTopic}. */
    public static final int MAX_QUEUES_PER_TOPIC_LIMIT = 65_536;

    public IndexSettings {
        if (rootDir == null) {
            throw new IllegalArgumentException("index rootDir must be set, was null");
        }
        requireRange("simpleCqSlotsPerFile", simpleCqSlotsPerFile, ConsumeQueueDescriptor.MAX_SLOTS_PER_FILE);
        requireRange("batchCqSlotsPerFile", batchCqSlotsPerFile, BatchConsumeQueueDescriptor.MAX_SLOTS_PER_FILE);
        requireRange("maxQueuesPerTopic", maxQueuesPerTopic, MAX_QUEUES_PER_TOPIC_LIMIT);
        requireRange("recoveryScanFiles", recoveryScanFiles, Integer.MAX_VALUE);
        if (batchCqUnitMaxBytes < 0 || batchCqUnitMaxBytes > MAX_BATCH_CQ_UNIT_BYTES) {
            throw new IllegalArgumentException("batchCqUnitMaxBytes must be in [0, " + MAX_BATCH_CQ_UNIT_BYTES
                    + "], was " + batchCqUnitMaxBytes);
        }
        if (batchCqSpanMaxBytes < 0 || batchCqSpanMaxBytes > MAX_BATCH_CQ_SPAN_BYTES) {
            throw new IllegalArgumentException("batchCqSpanMaxBytes must be in [0, " + MAX_BATCH_CQ_SPAN_BYTES
                    + "], was " + batchCqSpanMaxBytes);
        }
        if (logSegmentBytes < 0 || (batchCqSpanMaxBytes > 0 && logSegmentBytes == 0)) {
            throw new IllegalArgumentException("logSegmentBytes must be the CommitLog's segment size when "
                    + "batchCqSpanMaxBytes is set, was " + logSegmentBytes + " (batchCqSpanMaxBytes "
                    + batchCqSpanMaxBytes + ")");
        }
    }

    private static void requireRange(String name, int value, int max) {
        if (value < 1 || value > max) {
            throw new IllegalArgumentException(name + " must be in [1, " + max + "], was " + value);
        }
    }

    /** Upstream defaults under {@code rootDir}. */
    public static IndexSettings defaults(Path rootDir) {
        return new IndexSettings(rootDir, DEFAULT_SIMPLE_CQ_SLOTS_PER_FILE, DEFAULT_BATCH_CQ_SLOTS_PER_FILE,
                DEFAULT_MAX_QUEUES_PER_TOPIC, DEFAULT_RECOVERY_SCAN_FILES, 0, 0, 0);
    }

    public IndexSettings withSimpleCqSlotsPerFile(int slots) {
        return new IndexSettings(rootDir, slots, batchCqSlotsPerFile, maxQueuesPerTopic, recoveryScanFiles,
                batchCqUnitMaxBytes, batchCqSpanMaxBytes, logSegmentBytes);
    }

    public IndexSettings withBatchCqSlotsPerFile(int slots) {
        return new IndexSettings(rootDir, simpleCqSlotsPerFile, slots, maxQueuesPerTopic, recoveryScanFiles,
                batchCqUnitMaxBytes, batchCqSpanMaxBytes, logSegmentBytes);
    }

    public IndexSettings withMaxQueuesPerTopic(int queues) {
        return new IndexSettings(rootDir, simpleCqSlotsPerFile, batchCqSlotsPerFile, queues, recoveryScanFiles,
                batchCqUnitMaxBytes, batchCqSpanMaxBytes, logSegmentBytes);
    }

    public IndexSettings withRecoveryScanFiles(int files) {
        return new IndexSettings(rootDir, simpleCqSlotsPerFile, batchCqSlotsPerFile, maxQueuesPerTopic, files,
                batchCqUnitMaxBytes, batchCqSpanMaxBytes, logSegmentBytes);
    }

    public IndexSettings withBatchCqUnitMaxBytes(int bytes) {
        return new IndexSettings(rootDir, simpleCqSlotsPerFile, batchCqSlotsPerFile, maxQueuesPerTopic,
                recoveryScanFiles, bytes, batchCqSpanMaxBytes, logSegmentBytes);
    }

    /** Shared slots that may span other queues' records (see the {@code batchCqSpanMaxBytes} parameter). */
    public IndexSettings withBatchCqSpan(int spanMaxBytes, int commitLogSegmentBytes) {
        return new IndexSettings(rootDir, simpleCqSlotsPerFile, batchCqSlotsPerFile, maxQueuesPerTopic,
                recoveryScanFiles, batchCqUnitMaxBytes, spanMaxBytes, commitLogSegmentBytes);
    }

    /** The rule by which a BatchCQ record joins its queue's last slot. */
    SlotSharing slotSharing() {
        return new SlotSharing(batchCqUnitMaxBytes, batchCqSpanMaxBytes, logSegmentBytes);
    }

    /** {@code <rootDir>/consumequeue}. */
    public Path simpleCqDir() {
        return rootDir.resolve(ConsumeQueueDescriptor.DIRECTORY);
    }

    /** {@code <rootDir>/batchconsumequeue}. */
    public Path batchCqDir() {
        return rootDir.resolve(BatchConsumeQueueDescriptor.DIRECTORY);
    }
}
