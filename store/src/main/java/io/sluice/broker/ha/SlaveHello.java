package io.sluice.broker.ha;

import java.util.List;

/**
 * A slave's hello on the HA channel (layout in {@link HaFrameDescriptor}): who it is, where its log ends, its epoch
 * history, and its credentials. Immutable apart from the arrays, which nobody changes once built.
 *
 * @param slaveId     the slave's brokerId
 * @param position    the end of the slave's CommitLog
 * @param epochs      the slave's epoch history, oldest first (empty without a controller)
 * @param timestampMs the slave's clock when it said hello (epoch milliseconds)
 * @param nonce       a random number drawn for this hello alone
 * @param accessKey   the user the slave signs as; empty: unsigned
 * @param signature   HMAC-SHA1 of the hello's other bytes under the user's secret; empty when unsigned
 */
record SlaveHello(long slaveId, long position, List<EpochEntry> epochs, long timestampMs, long nonce,
                  String accessKey, byte[] signature) {

    /** Whether the hello names a user and carries a signature. */
    boolean signed() {
        return !accessKey.isEmpty();
    }

    /** This hello with {@code value} as its signature. */
    SlaveHello withSignature(byte[] value) {
        return new SlaveHello(slaveId, position, epochs, timestampMs, nonce, accessKey, value);
    }
}
