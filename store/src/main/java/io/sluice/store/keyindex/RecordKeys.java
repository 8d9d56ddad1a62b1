package io.sluice.store.keyindex;

import io.sluice.format.MessageProperties;
import io.sluice.format.RecordDescriptor;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * The keys a stored record is indexed under: its {@code UNIQ_KEY} and each of its space-separated {@code KEYS}
 * (as Apache's {@code MessageConst.KEY_SEPARATOR}), read from the record's properties.
 *
 * <p>Stateless; thread-safe.
 */
final class RecordKeys {

    /** Separates the keys in {@code KEYS}. */
    static final char KEY_SEPARATOR = ' ';

    private RecordKeys() {
    }

    /** The properties text of a whole record ({@code record} index 0 = its first byte); "" when it has none. */
    static String properties(ByteBuffer record) {
        int sysFlag = record.getInt(RecordDescriptor.SYS_FLAG_OFFSET);
        int magic = record.getInt(RecordDescriptor.MAGIC_OFFSET);
        int bodyLengthAt = RecordDescriptor.bodyLengthOffset(sysFlag);
        int topicLengthAt = bodyLengthAt + Integer.BYTES + record.getInt(bodyLengthAt);
        int topicLengthBytes = RecordDescriptor.topicLengthBytes(magic);
        int topicBytes = topicLengthBytes == Byte.BYTES ? record.get(topicLengthAt) & 0xFF
                : record.getShort(topicLengthAt) & 0xFFFF;
        int propertiesLengthAt = topicLengthAt + topicLengthBytes + topicBytes;
        int propertiesBytes = record.getShort(propertiesLengthAt) & 0xFFFF;
        if (propertiesBytes == 0) {
            return "";
        }
        byte[] bytes = new byte[propertiesBytes];
        record.get(propertiesLengthAt + Short.BYTES, bytes);
        return new String(bytes, StandardCharsets.UTF_8);
    }

    /**
     * Calls {@code sink} for each key of a record with these properties, at most {@code maxKeys} in all (the
     * unique key first).
     *
     * @return keys left out beyond {@code maxKeys}
     */
    static int forEachKey(String properties, int maxKeys, KeySink sink) {
        int offered = 0;
        int skipped = 0;
        String unique = MessageProperties.find(properties, MessageProperties.UNIQ_KEY);
        if (unique != null && !unique.isEmpty()) {
            sink.accept(KeyHash.KIND_UNIQUE, unique);
            offered++;
        }
        String keys = MessageProperties.find(properties, MessageProperties.KEYS);
        if (keys == null) {
            return 0;
        }
        int start = 0;
        while (start <= keys.length()) {
            int end = keys.indexOf(KEY_SEPARATOR, start);
            if (end < 0) {
                end = keys.length();
            }
            if (end > start) {
                if (offered < maxKeys) {
                    sink.accept(KeyHash.KIND_KEY, keys.substring(start, end));
                    offered++;
                } else {
                    skipped++;
                }
            }
            start = end + 1;
        }
        return skipped;
    }

    /** Whether a record with these properties carries {@code key} of {@code kind}. */
    static boolean carries(String properties, char kind, String key) {
        if (key.isEmpty()) {
            return false;
        }
        if (kind == KeyHash.KIND_UNIQUE) {
            return key.equals(MessageProperties.find(properties, MessageProperties.UNIQ_KEY));
        }
        String keys = MessageProperties.find(properties, MessageProperties.KEYS);
        if (keys == null) {
            return false;
        }
        int at = keys.indexOf(key);
        while (at >= 0) {
            int end = at + key.length();
            boolean startsKey = at == 0 || keys.charAt(at - 1) == KEY_SEPARATOR;
            boolean endsKey = end == keys.length() || keys.charAt(end) == KEY_SEPARATOR;
            if (startsKey && endsKey) {
                return true;
            }
            at = keys.indexOf(key, at + 1);
        }
        return false;
    }

    /** Receives one key of a record. */
    @FunctionalInterface
    interface KeySink {
        void accept(char kind, String key);
    }
}
