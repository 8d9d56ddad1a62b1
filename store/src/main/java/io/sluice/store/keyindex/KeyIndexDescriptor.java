package io.sluice.store.keyindex;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.zip.CRC32;

/**
 * Layout of one key-index file. Big-endian. A file is named by the CommitLog position it starts at (20 digits),
 * and covers the records from there to the next file's start.
 *
 * <pre>
 *  header (64 bytes)
 *   0  MAGIC           int   0x4B494458 ("KIDX")
 *   4  VERSION         int   1
 *   8  HASH_SLOTS      int   s, slots in this file
 *  12  ENTRIES         int   n, entry capacity (entry 0 is never used: index 0 means "none")
 *  16  BEGIN_POSITION  long  CommitLog position of the first record the file covers (also its name)
 *  24  END_POSITION    long  checkpoint: every key of every record below it is in entries [1, ENTRY_COUNT)
 *  32  BEGIN_TIME_MS   long  store time of entry 1 (0 while the file is empty)
 *  40  END_TIME_MS     long  store time of the last checkpointed entry
 *  48  ENTRY_COUNT     int   checkpointed entries, counting the unused entry 0 (1 while empty)
 *  52  STATE           int   0 OPEN (may grow), 1 SEALED (full; never written again)
 *  56  HEADER_CRC      int   CRC32 of bytes [0, 56)
 *  60  (reserved)      int   0
 *
 *  hash slots, at 64: s × int
 *      slot i = index of the newest entry whose key hash falls in slot i; 0 = none
 *
 *  entries, at 64 + 4s: n × 24 bytes; entry j at 64 + 4s + 24j
 *   0  KEY_HASH        int   high 32 bits of the key's 64-bit hash (the low bits chose the slot)
 *   4  POSITION        long  CommitLog position of the record carrying the key
 *  12  STORE_TIME_MS   long  the record's STORETIMESTAMP
 *  20  PREV_ENTRY      int   the slot's previous head (an older entry, always &lt; j); 0 = end of chain
 * </pre>
 *
 * <p>Write order (one writer): an entry's fields, then its slot (release). A checkpoint forces the mapping, then
 * writes and forces the header, so everything the header counts is on disk. After a crash, slots may point past
 * ENTRY_COUNT to entries written after the checkpoint: recovery walks each such chain back below ENTRY_COUNT
 * (an entry whose hash does not belong to the slot or whose PREV_ENTRY is not older marks the file damaged).
 *
 * <p>Stateless; thread-safe.
 */
final class KeyIndexDescriptor {

    static final ByteOrder BYTE_ORDER = ByteOrder.BIG_ENDIAN;
    static final int MAGIC = 0x4B494458;
    static final int VERSION = 1;

    static final int MAGIC_OFFSET = 0;
    static final int VERSION_OFFSET = 4;
    static final int HASH_SLOTS_OFFSET = 8;
    static final int ENTRIES_OFFSET = 12;
    static final int BEGIN_POSITION_OFFSET = 16;
    static final int END_POSITION_OFFSET = 24;
    static final int BEGIN_TIME_OFFSET = 32;
    static final int END_TIME_OFFSET = 40;
    static final int ENTRY_COUNT_OFFSET = 48;
    static final int STATE_OFFSET = 52;
    static final int HEADER_CRC_OFFSET = 56;
    static final int HEADER_BYTES = 64;

    static final int STATE_OPEN = 0;
    static final int STATE_SEALED = 1;

    static final int SLOT_BYTES = 4;
    static final int ENTRY_BYTES = 24;
    static final int ENTRY_HASH_OFFSET = 0;
    static final int ENTRY_POSITION_OFFSET = 4;
    static final int ENTRY_TIME_OFFSET = 12;
    static final int ENTRY_PREV_OFFSET = 20;

    /** Keys of one record that are indexed; a record carrying more has the rest ignored (and counted). */
    static final int MAX_KEYS_PER_RECORD = 64;
    /** Fewest entries a file may have: room for one record's keys beside the unused entry 0. */
    static final int MIN_ENTRIES = 2 * MAX_KEYS_PER_RECORD;
    static final int MAX_HASH_SLOTS = 50_000_000;
    /** With {@link #MAX_HASH_SLOTS}, keeps a file below 2 GiB, the largest one mapping can cover. */
    static final int MAX_ENTRIES = 60_000_000;

    private static final int NAME_DIGITS = 20;

    private KeyIndexDescriptor() {
    }

    static long fileBytes(int hashSlots, int entries) {
        return HEADER_BYTES + (long) SLOT_BYTES * hashSlots + (long) ENTRY_BYTES * entries;
    }

    static int slotByte(int slot) {
        return HEADER_BYTES + SLOT_BYTES * slot;
    }

    static int entryByte(int hashSlots, int entry) {
        return HEADER_BYTES + SLOT_BYTES * hashSlots + ENTRY_BYTES * entry;
    }

    /** CRC32 of the header's first 56 bytes. */
    static int headerCrc(ByteBuffer file) {
        CRC32 crc = new CRC32();
        crc.update(file.duplicate().position(0).limit(HEADER_CRC_OFFSET));
        return (int) crc.getValue();
    }

    /** The file name of the file starting at {@code beginPosition}. */
    static String fileName(long beginPosition) {
        String digits = Long.toString(beginPosition);
        return "0".repeat(Math.max(0, NAME_DIGITS - digits.length())) + digits;
    }

    /** The begin position a file name stands for; -1 when it is not an index file's name. */
    static long parseFileName(String name) {
        if (name.length() != NAME_DIGITS) {
            return -1;
        }
        for (int i = 0; i < name.length(); i++) {
            if (name.charAt(i) < '0' || name.charAt(i) > '9') {
                return -1;
            }
        }
        return Long.parseLong(name);
    }
}
