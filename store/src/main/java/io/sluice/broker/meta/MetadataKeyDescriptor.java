package io.sluice.broker.meta;

import io.sluice.store.TopicNames;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * Layout of the metadata database: its column families, keys and values.
 *
 * <pre>
 *  column family  key                                              value
 *  -------------  -----------------------------------------------  ------------------------------------------
 *  default        "format" (ASCII)                                 int32 format version, currently 1
 *  topics         topic name (ASCII, 1..255 bytes)                 TopicConfig JSON, UTF-8 (see MetadataJson)
 *  groups         group name (ASCII, 1..248 bytes)                 SubscriptionGroupConfig JSON, UTF-8
 *  versions       "topics" | "groups" (ASCII)                      TableVersion JSON, UTF-8
 *  offsets        offset key, below                                int64 committed offset
 *  kv             caller's key (UTF-8, 1..255 bytes)               int64 value
 *
 *  offset key:
 *  +--------------------+------+--------------------+------+---------------------+
 *  | group (n bytes)    | 0x00 | topic (m bytes)    | 0x00 | queueId (int32)     |
 *  +--------------------+------+--------------------+------+---------------------+
 *   0                    n      n+1                  n+1+m  n+2+m           n+6+m
 * </pre>
 *
 * Big-endian. Names use only {@code [%|a-zA-Z0-9_-]} ({@link TopicNames}), so {@code [group 0x00, group 0x01)} is
 * exactly one group's offsets (one {@code deleteRange}); families keep rarely written tables apart from offsets
 * (docs/storage.md#metadata-store).
 *
 * <p>Stateless; thread-safe.
 */
final class MetadataKeyDescriptor {

    static final String CF_DEFAULT = "default";
    static final String CF_TOPICS = "topics";
    static final String CF_GROUPS = "groups";
    static final String CF_VERSIONS = "versions";
    static final String CF_OFFSETS = "offsets";
    static final String CF_KV = "kv";

    /** The column families in the order the database opens them (index = position in the handle list). */
    static final String[] COLUMN_FAMILIES = {CF_DEFAULT, CF_TOPICS, CF_GROUPS, CF_VERSIONS, CF_OFFSETS, CF_KV};

    static final byte[] FORMAT_KEY = ascii("format");
    static final int FORMAT_VERSION = 1;
    static final byte[] TOPICS_VERSION_KEY = ascii("topics");
    static final byte[] GROUPS_VERSION_KEY = ascii("groups");

    /** Longest key of the kv family, in UTF-8 bytes. */
    static final int MAX_KV_KEY_BYTES = 255;

    private static final byte SEPARATOR = 0x00;
    private static final byte AFTER_SEPARATOR = 0x01;

    private MetadataKeyDescriptor() {
    }

    /** Key of a topic or group: the name's bytes. The caller has validated the name. */
    static byte[] nameKey(String name) {
        return ascii(name);
    }

    /** Key of one committed offset. The caller has validated both names and the queue id. */
    static byte[] offsetKey(String group, String topic, int queueId) {
        int groupLength = group.length();
        int topicLength = topic.length();
        ByteBuffer buf = ByteBuffer.allocate(groupLength + 1 + topicLength + 1 + Integer.BYTES);
        putAscii(buf, group);
        buf.put(SEPARATOR);
        putAscii(buf, topic);
        buf.put(SEPARATOR);
        buf.putInt(queueId);
        return buf.array();
    }

    /** First key of {@code group}'s offsets (inclusive): {@code group 0x00}. */
    static byte[] groupOffsetsStart(String group) {
        byte[] key = new byte[group.length() + 1];
        System.arraycopy(ascii(group), 0, key, 0, group.length());
        key[group.length()] = SEPARATOR;
        return key;
    }

    /** End of {@code group}'s offsets (exclusive): {@code group 0x01}. */
    static byte[] groupOffsetsEnd(String group) {
        byte[] key = groupOffsetsStart(group);
        key[key.length - 1] = AFTER_SEPARATOR;
        return key;
    }

    /**
     * Decodes an offset key and its value.
     *
     * @throws IllegalArgumentException when the key does not have the layout above
     */
    static ConsumerOffset decodeOffset(byte[] key, byte[] value) {
        int firstSeparator = indexOf(key, 0);
        int secondSeparator = firstSeparator < 0 ? -1 : indexOf(key, firstSeparator + 1);
        if (firstSeparator <= 0 || secondSeparator <= firstSeparator + 1
                || key.length != secondSeparator + 1 + Integer.BYTES) {
            throw new IllegalArgumentException("malformed offset key of " + key.length + " bytes");
        }
        String group = new String(key, 0, firstSeparator, StandardCharsets.US_ASCII);
        String topic = new String(key, firstSeparator + 1, secondSeparator - firstSeparator - 1,
                StandardCharsets.US_ASCII);
        int queueId = ByteBuffer.wrap(key, secondSeparator + 1, Integer.BYTES).getInt();
        return new ConsumerOffset(group, topic, queueId, decodeLong(value));
    }

    /** Key of the kv family. */
    static byte[] kvKey(String key) {
        if (key == null || key.isEmpty()) {
            throw new IllegalArgumentException("kv key must not be empty");
        }
        byte[] bytes = key.getBytes(StandardCharsets.UTF_8);
        if (bytes.length > MAX_KV_KEY_BYTES) {
            throw new IllegalArgumentException("kv key '" + key + "' is " + bytes.length
                    + " UTF-8 bytes, the maximum is " + MAX_KV_KEY_BYTES);
        }
        return bytes;
    }

    static String decodeKvKey(byte[] key) {
        return new String(key, StandardCharsets.UTF_8);
    }

    static byte[] encodeLong(long value) {
        return ByteBuffer.allocate(Long.BYTES).putLong(value).array();
    }

    /**
     * Decodes an int64 value.
     *
     * @throws IllegalArgumentException when the value is not 8 bytes long
     */
    static long decodeLong(byte[] value) {
        if (value.length != Long.BYTES) {
            throw new IllegalArgumentException("malformed int64 value of " + value.length + " bytes");
        }
        return ByteBuffer.wrap(value).getLong();
    }

    static byte[] encodeInt(int value) {
        return ByteBuffer.allocate(Integer.BYTES).putInt(value).array();
    }

    /**
     * Decodes an int32 value.
     *
     * @throws IllegalArgumentException when the value is not 4 bytes long
     */
    static int decodeInt(byte[] value) {
        if (value.length != Integer.BYTES) {
            throw new IllegalArgumentException("malformed int32 value of " + value.length + " bytes");
        }
        return ByteBuffer.wrap(value).getInt();
    }

    /** True when {@code key} starts with {@code prefix}. */
    static boolean startsWith(byte[] key, byte[] prefix) {
        if (key.length < prefix.length) {
            return false;
        }
        for (int i = 0; i < prefix.length; i++) {
            if (key[i] != prefix[i]) {
                return false;
            }
        }
        return true;
    }

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    private static void putAscii(ByteBuffer buf, String s) {
        for (int i = 0; i < s.length(); i++) {
            buf.put((byte) s.charAt(i));
        }
    }

    private static int indexOf(byte[] key, int from) {
        for (int i = from; i < key.length; i++) {
            if (key[i] == SEPARATOR) {
                return i;
            }
        }
        return -1;
    }
}
