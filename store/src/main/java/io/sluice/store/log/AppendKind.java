package io.sluice.store.log;

import io.sluice.format.BatchBodyDescriptor;
/**
 * How a {@link MessageDraft} becomes CommitLog records.
 *
 * <p>Immutable; thread-safe.
 */
public enum AppendKind {
    /** One message, one record; the queue advances by 1. */
    SINGLE,
    /**
     * The body is a SEND_BATCH_MESSAGE body ({@link BatchBodyDescriptor}); every entry becomes its own record
     * with consecutive queue offsets, one shared store timestamp and only the entry's own properties (the
     * draft's properties are not stored). The batch is all-or-nothing and never spans two segments.
     */
    UNPACKED_BATCH,
    /**
     * The body is a SEND_BATCH_MESSAGE body stored verbatim as one BatchCQ record: SYSFLAG gains
     * NEED_UNWRAP | INNER_BATCH, the draft's properties gain {@code INNER_NUM} (entry count) and
     * {@code INNER_BASE} (the assigned base offset), QUEUEOFFSET is the base offset and the queue advances by
     * the entry count.
     */
    INNER_BATCH
}
