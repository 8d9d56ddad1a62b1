package io.sluice.format;

/**
 * A SEND_BATCH_MESSAGE body that does not follow {@link BatchBodyDescriptor}. The message names the entry, its
 * byte index and the bad value.
 *
 * <p>Immutable; thread-safe.
 */
public final class MalformedBatchException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    /** @param message names the entry, its index and the bad value */
    public MalformedBatchException(String message) {
        super(message);
    }
}
