package io.sluice.client;

/** How a stored message was acknowledged (the broker answered one of the four "stored" codes). */
public enum SendStatus {
    /** Stored (code 0). */
    SEND_OK,
    /** Stored, but the synchronous flush timed out (code 10). */
    FLUSH_DISK_TIMEOUT,
    /** Stored, but replication to the slave timed out (code 12). */
    FLUSH_SLAVE_TIMEOUT,
    /** Stored, but no slave was available (code 11). */
    SLAVE_NOT_AVAILABLE
}
