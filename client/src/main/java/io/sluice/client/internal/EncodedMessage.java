package io.sluice.client.internal;

import io.sluice.client.Message;

/**
 * A message encoded as one batch entry ({@link BatchEntryDescriptor}) with the UNIQ_KEY written into it.
 * Immutable once built; the entry array is never changed after encoding.
 *
 * @param message the message
 * @param uniqKey the message's UNIQ_KEY (its client message id)
 * @param entry the encoded entry
 */
public record EncodedMessage(Message message, String uniqKey, byte[] entry) {

    /** Bytes of the entry. */
    public int entryBytes() {
        return entry.length;
    }
}
