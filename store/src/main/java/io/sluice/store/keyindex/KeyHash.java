package io.sluice.store.keyindex;

/**
 * The 64-bit hash under which a key is indexed: FNV-1a over the topic, a separator, the key's kind and the key,
 * then a 64-bit finalizer so that both halves are well mixed. The low half picks the slot, the high half is kept
 * in the entry, so two keys that share a slot are told apart without reading the CommitLog (mostly: a match is
 * always checked against the record).
 *
 * <p>Stateless; thread-safe.
 */
final class KeyHash {

    /** A message key, one of the space-separated {@code KEYS}. */
    static final char KIND_KEY = 'K';
    /** The message's {@code UNIQ_KEY} (its client message id). */
    static final char KIND_UNIQUE = 'U';

    private static final long FNV_OFFSET = 0xcbf29ce484222325L;
    private static final long FNV_PRIME = 0x100000001b3L;

    private KeyHash() {
    }

    static long of(String topic, char kind, CharSequence key) {
        long h = FNV_OFFSET;
        h = mix(h, topic);
        h = (h ^ 0) * FNV_PRIME;
        h = (h ^ kind) * FNV_PRIME;
        h = mix(h, key);
        return finish(h);
    }

    static int slotOf(long hash, int hashSlots) {
        return Integer.remainderUnsigned((int) hash, hashSlots);
    }

    static int storedHashOf(long hash) {
        return (int) (hash >>> 32);
    }

    private static long mix(long h, CharSequence s) {
        long x = h;
        for (int i = 0; i < s.length(); i++) {
            x = (x ^ s.charAt(i)) * FNV_PRIME;
        }
        return x;
    }

    private static long finish(long h) {
        long x = h;
        x ^= x >>> 33;
        x *= 0xff51afd7ed558ccdL;
        x ^= x >>> 33;
        x *= 0xc4ceb9fe1a85ec53L;
        x ^= x >>> 33;
        return x;
    }
}
