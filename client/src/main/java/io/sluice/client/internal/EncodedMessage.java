package io.sluice.client.internal;

import io.sluice.client.Message;

/**
 * A message encoded as one batch entry ({@link BatchEntryWriter}) in an array of its own, with its UNIQ_KEY
 * written into it. Used for sends that are not auto-batched (auto-batches write their entries straight into the
 * batch's {@link BatchBody}). Immutable once built; the entry array is never changed after encoding; thread-safe.
 */
public final class EncodedMessage {
    private final Message message;
    private final byte[] entry;
    private final String uniqKey;

    EncodedMessage(Message message, byte[] entry, String uniqKey) {
        this.message = message;
        this.entry = entry;
        this.uniqKey = uniqKey;
    }

    /** The message. */
    public Message message() {
        return message;
    }

    /** The encoded entry. */
    public byte[] entry() {
        return entry;
    }

    /** The message's UNIQ_KEY (its client message id). */
    public String uniqKey() {
        return uniqKey;
    }
}
