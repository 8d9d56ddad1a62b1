package io.sluice.broker.meta;

/**
 * The metadata database failed (I/O error, corruption, unreadable stored value). The store's content on disk is
 * unchanged by the failed call; the caller should treat the broker's metadata as unavailable.
 *
 * <p>Immutable; thread-safe.
 */
public final class MetadataStoreException extends RuntimeException {

    /**
     * @param message what failed, naming the directory and key where known
     * @param cause   the underlying RocksDB or decoding error
     */
    public MetadataStoreException(String message, Throwable cause) {
        super(message, cause);
    }
}
