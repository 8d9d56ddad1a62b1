package io.sluice.store.log;

import java.io.IOException;

/**
 * Called immediately before the CommitLog writes {@code bytes} bytes at log position {@code position} through a
 * segment's file.
 *
 * <p>Production code uses {@link #NONE}. Tests use it to fail a write deterministically, as a full disk would
 * (an {@link IOException} thrown here is handled exactly like one thrown by the write). Called by the append
 * lock holder.
 */
@FunctionalInterface
interface WriteHook {

    /** Does nothing. */
    WriteHook NONE = (position, bytes) -> { };

    /**
     * @param position log position of the first byte about to be written
     * @param bytes    how many bytes are about to be written there
     * @throws IOException to simulate a failed write
     */
    void beforeWrite(long position, int bytes) throws IOException;
}
