package io.sluice.client.internal;

import io.sluice.client.Message;
import java.nio.charset.StandardCharsets;

/**
 * A message encoded as one batch entry ({@link BatchEntryDescriptor}) with its UNIQ_KEY written into it. The key's
 * {@code String} is made only when asked for (on the I/O thread that completes the send, not on the sending
 * thread). Immutable once built; the entry array is never changed after encoding; thread-safe.
 */
public final class EncodedMessage {
    private final Message message;
    private final byte[] entry;
    private final int keyIndex;
    private final int keyLength;

    EncodedMessage(Message message, byte[] entry, int keyIndex, int keyLength) {
        this.message = message;
        this.entry = entry;
        this.keyIndex = keyIndex;
        this.keyLength = keyLength;
    }

    /** The message. */
    public Message message() {
        return message;
    }

    /** The encoded entry. */
    public byte[] entry() {
        return entry;
    }

    /** Bytes of the entry. */
    public int entryBytes() {
        return entry.length;
    }

    /** The message's UNIQ_KEY (its client message id). */
    public String uniqKey() {
        return new String(entry, keyIndex, keyLength, StandardCharsets.US_ASCII);
    }
}
