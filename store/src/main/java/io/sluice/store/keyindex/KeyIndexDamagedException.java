package io.sluice.store.keyindex;

import java.io.IOException;

/** A key-index file that cannot be trusted; the index rebuilds its part from the CommitLog. */
final class KeyIndexDamagedException extends IOException {

    private static final long serialVersionUID = 1L;

    KeyIndexDamagedException(String message) {
        super(message);
    }
}
