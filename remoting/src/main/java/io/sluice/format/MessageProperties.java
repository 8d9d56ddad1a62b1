package io.sluice.format;

import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.agrona.DirectBuffer;

/**
 * Codec of the message properties string: {@code name 0x01 value 0x02} for every pair, the last one included.
 *
 * <p>Parsing follows Apache RocketMQ exactly: split on 0x02; in each piece the first 0x01 splits name from value;
 * a piece is kept only when both name and value are non-empty (so {@code KEYS\u0001} disappears); a later
 * duplicate overwrites an earlier one. Both a trailing 0x02 and its absence are accepted.
 *
 * <p>Stateless; thread-safe.
 */
public final class MessageProperties {

    /** Separates a name from its value. */
    public static final char NAME_VALUE_SEPARATOR = '\u0001';
    /** Terminates a pair. */
    public static final char PROPERTY_SEPARATOR = '\u0002';

    /** Tag of the message; its {@code String.hashCode()} is the consume-queue tagsCode. */
    public static final String TAGS = "TAGS";
    /** User keys separated by a space. */
    public static final String KEYS = "KEYS";
    /** Client-generated unique message id. */
    public static final String UNIQ_KEY = "UNIQ_KEY";
    /** {@code "false"} when the producer does not wait for the store (waitStoreMsgOK). */
    public static final String WAIT = "WAIT";
    /** Delay level. */
    public static final String DELAY = "DELAY";
    /** Broker cluster name, added by the broker. */
    public static final String CLUSTER = "CLUSTER";
    /** Inner batch: number of messages in the record. */
    public static final String INNER_NUM = "INNER_NUM";
    /** Inner batch: queue offset of the first message in the record. */
    public static final String INNER_BASE = "INNER_BASE";
    /** Original topic of a delayed or transactional message. */
    public static final String REAL_TOPIC = "REAL_TOPIC";
    /** Original queue id of a delayed or transactional message. */
    public static final String REAL_QID = "REAL_QID";
    /** Original topic of a retried message. */
    public static final String RETRY_TOPIC = "RETRY_TOPIC";
    /** Offset message id of the first delivery of a retried message. */
    public static final String ORIGIN_MESSAGE_ID = "ORIGIN_MESSAGE_ID";
    /** Added by the consumer from the pull response; never stored. */
    public static final String MAX_OFFSET = "MAX_OFFSET";
    /** Added by the consumer from the pull response; never stored. */
    public static final String MIN_OFFSET = "MIN_OFFSET";
    /** {@code "true"} on a transactional half message. */
    public static final String TRAN_MSG = "TRAN_MSG";
    /** Producer group (transactions). */
    public static final String PGROUP = "PGROUP";
    /** How many times a message was reconsumed (client republish). */
    public static final String RECONSUME_TIME = "RECONSUME_TIME";
    /** Maximum reconsume times of a retried message. */
    public static final String MAX_RECONSUME_TIMES = "MAX_RECONSUME_TIMES";
    /** Set by the client when consumption starts. */
    public static final String CONSUME_START_TIME = "CONSUME_START_TIME";
    /** Region id (response field of Apache brokers). */
    public static final String MSG_REGION = "MSG_REGION";
    /** Trace switch (response field of Apache brokers). */
    public static final String TRACE_ON = "TRACE_ON";
    /** Timer message: the absolute delivery time, epoch milliseconds. */
    public static final String TIMER_DELIVER_MS = "TIMER_DELIVER_MS";
    /** Timer message: the delay in seconds from the send. */
    public static final String TIMER_DELAY_SEC = "TIMER_DELAY_SEC";
    /** Timer message: the delay in milliseconds from the send. */
    public static final String TIMER_DELAY_MS = "TIMER_DELAY_MS";

    /** Names a user may not set: the client or the broker owns them. */
    public static final Set<String> RESERVED = Set.of(UNIQ_KEY, TAGS, KEYS, WAIT, DELAY, INNER_NUM, INNER_BASE,
            RETRY_TOPIC, ORIGIN_MESSAGE_ID, MIN_OFFSET, MAX_OFFSET, PGROUP, RECONSUME_TIME, MAX_RECONSUME_TIMES,
            TRAN_MSG, CLUSTER, REAL_TOPIC, REAL_QID, MSG_REGION, TRACE_ON, CONSUME_START_TIME, TIMER_DELIVER_MS,
            TIMER_DELAY_SEC, TIMER_DELAY_MS);

    private static final long LOW_BIT_OF_EVERY_BYTE = 0x0101010101010101L;
    private static final long HIGH_BIT_OF_EVERY_BYTE = 0x8080808080808080L;
    private static final long SEPARATOR_IN_EVERY_BYTE = LOW_BIT_OF_EVERY_BYTE * PROPERTY_SEPARATOR;

    /** Returned by {@link #findValue} when the name is absent. */
    public static final long NOT_FOUND = -1L;

    private MessageProperties() {
    }

    /**
     * Parses a properties string. Never fails: malformed pieces are skipped as Apache does.
     *
     * @param text the properties string; {@code null} or empty gives an empty map
     * @return a mutable map in string order, later duplicates having overwritten earlier ones
     */
    public static Map<String, String> parse(String text) {
        Map<String, String> map = new LinkedHashMap<>();
        if (text == null) {
            return map;
        }
        int len = text.length();
        int start = 0;
        while (start < len) {
            int end = text.indexOf(PROPERTY_SEPARATOR, start);
            if (end < 0) {
                end = len;
            }
            int sep = text.indexOf(NAME_VALUE_SEPARATOR, start);
            if (sep > start && sep < end - 1) {
                map.put(text.substring(start, sep), text.substring(sep + 1, end));
            }
            start = end + 1;
        }
        return map;
    }

    /**
     * Encodes pairs as {@code name 0x01 value 0x02}, in iteration order. Pairs with a {@code null} value are
     * skipped; empty values are written (and dropped again by {@link #parse}).
     *
     * @throws IllegalArgumentException naming the pair when a name is empty or contains 0x01/0x02, or a value
     *                                  contains 0x02
     */
    public static String encode(Map<String, String> properties) {
        StringBuilder sb = new StringBuilder(properties.size() * 16);
        for (Map.Entry<String, String> e : properties.entrySet()) {
            String name = e.getKey();
            String value = e.getValue();
            if (value == null) {
                continue;
            }
            if (name == null || name.isEmpty() || name.indexOf(NAME_VALUE_SEPARATOR) >= 0
                    || name.indexOf(PROPERTY_SEPARATOR) >= 0) {
                throw new IllegalArgumentException("illegal property name '" + name + "'");
            }
            if (value.indexOf(PROPERTY_SEPARATOR) >= 0) {
                throw new IllegalArgumentException("value of property '" + name + "' contains 0x02");
            }
            appendPair(sb, name, value);
        }
        return sb.toString();
    }

    /**
     * The value of {@code name} in a properties string, with {@link #parse} semantics (last occurrence wins)
     * but without building a map.
     *
     * @return the value, or {@code null} when the name is absent (absence is not an error)
     */
    public static String find(String text, String name) {
        long range = findRange(text, name);
        if (range == NOT_FOUND) {
            return null;
        }
        return text.substring(valueIndex(range), valueIndex(range) + valueLength(range));
    }

    /**
     * Where {@link #find} would take its value from, without building a string.
     *
     * @return {@code (valueIndex << 32) | valueLength} of the value in {@code text}, or {@link #NOT_FOUND}
     */
    public static long findRange(String text, String name) {
        if (text == null || text.isEmpty()) {
            return NOT_FOUND;
        }
        long found = NOT_FOUND;
        int len = text.length();
        int start = 0;
        while (start < len) {
            int end = text.indexOf(PROPERTY_SEPARATOR, start);
            if (end < 0) {
                end = len;
            }
            int sep = text.indexOf(NAME_VALUE_SEPARATOR, start);
            if (sep > start && sep < end - 1 && sep - start == name.length() && text.startsWith(name, start)) {
                found = ((long) (sep + 1) << 32) | (end - sep - 1);
            }
            start = end + 1;
        }
        return found;
    }

    /** True when {@link #find} would return {@code value}; builds no string. */
    public static boolean hasValue(String text, String name, String value) {
        long range = findRange(text, name);
        return range != NOT_FOUND && valueLength(range) == value.length()
                && text.startsWith(value, valueIndex(range));
    }

    /**
     * Appends a pair to an encoded string, first terminating the string's last pair if the producer left it
     * unterminated (5.1.4 clients do).
     */
    public static String append(String text, String name, String value) {
        StringBuilder sb = new StringBuilder((text == null ? 0 : text.length()) + name.length() + value.length() + 2);
        appendTerminated(sb, text);
        return appendPair(sb, name, value).toString();
    }

    /** Appends one terminated pair to {@code text}. */
    public static StringBuilder appendPair(StringBuilder text, String name, String value) {
        return text.append(name).append(NAME_VALUE_SEPARATOR).append(value).append(PROPERTY_SEPARATOR);
    }

    /**
     * Checks a pair a user sets on a message.
     *
     * @throws IllegalArgumentException naming the pair when the name is empty, reserved or contains a separator,
     *                                  or the value is empty or contains a separator
     */
    public static void validateUserProperty(String name, String value) {
        if (name == null || name.isEmpty()) {
            throw new IllegalArgumentException("property name must not be empty, was '" + name + "'");
        }
        if (RESERVED.contains(name)) {
            throw new IllegalArgumentException("property name '" + name + "' is reserved for the client or broker");
        }
        if (containsSeparator(name)) {
            throw new IllegalArgumentException("property name '" + name + "' contains 0x01 or 0x02");
        }
        if (value == null || value.isEmpty()) {
            throw new IllegalArgumentException("value of property '" + name + "' must not be empty");
        }
        if (containsSeparator(value)) {
            throw new IllegalArgumentException("value of property '" + name + "' contains 0x01 or 0x02");
        }
    }

    /** True when {@code text} contains 0x01 or 0x02. */
    public static boolean containsSeparator(String text) {
        return text.indexOf(NAME_VALUE_SEPARATOR) >= 0 || text.indexOf(PROPERTY_SEPARATOR) >= 0;
    }

    /** Appends {@code text} to {@code sb}, adding the final 0x02 when {@code text} is non-empty and lacks it. */
    public static void appendTerminated(StringBuilder sb, String text) {
        if (text != null && !text.isEmpty()) {
            sb.append(text);
            if (text.charAt(text.length() - 1) != PROPERTY_SEPARATOR) {
                sb.append(PROPERTY_SEPARATOR);
            }
        }
    }

    /** The ASCII bytes of a property name, for {@link #findValue}. */
    public static byte[] nameBytes(String name) {
        return name.getBytes(StandardCharsets.US_ASCII);
    }

    /**
     * Finds {@code name} in the encoded properties {@code buffer[index, index + length)} with {@link #parse}
     * semantics (last occurrence wins), without decoding anything.
     *
     * @return {@code (valueIndex << 32) | valueLength}, or {@link #NOT_FOUND}
     */
    public static long findValue(DirectBuffer buffer, int index, int length, byte[] name) {
        if (name.length == 0 || contains(name, (byte) NAME_VALUE_SEPARATOR)) {
            return findValueBytewise(buffer, index, length, name);
        }
        // The name holds no NAME_VALUE_SEPARATOR, so only the piece ends need a scan (see valueIfNamed).
        long found = NOT_FOUND;
        int end = index + length;
        int start = index;
        while (start < end) {
            int pieceEnd = indexOfPropertySeparator(buffer, start, end);
            long value = valueIfNamed(buffer, start, pieceEnd, name);
            if (value != NOT_FOUND) {
                found = value;
            }
            start = pieceEnd + 1;
        }
        return found;
    }

    /**
     * Property names looked up together by {@link #findValues}, checked once rather than on every lookup. Immutable;
     * the arrays are never handed out.
     */
    public static final class NameSet {
        private final byte[][] names;
        /** Every name is non-empty and free of NAME_VALUE_SEPARATOR: one pass over the piece ends finds them all. */
        private final boolean plain;

        public NameSet(byte[]... names) {
            this.names = new byte[names.length][];
            boolean allPlain = true;
            for (int k = 0; k < names.length; k++) {
                this.names[k] = names[k].clone();
                allPlain &= names[k].length > 0 && !contains(names[k], (byte) NAME_VALUE_SEPARATOR);
            }
            this.plain = allPlain;
        }

        /** A set of the given ASCII property names. */
        public static NameSet of(String... names) {
            byte[][] bytes = new byte[names.length][];
            for (int k = 0; k < names.length; k++) {
                bytes[k] = nameBytes(names[k]);
            }
            return new NameSet(bytes);
        }

        /** The k-th name. */
        public String name(int k) {
            return new String(names[k], StandardCharsets.US_ASCII);
        }

        public int size() {
            return names.length;
        }
    }

    /**
     * {@link #findValue} for several names in one pass over the properties: {@code found[k]} becomes the result for
     * the k-th name of {@code set}. A piece is compared only with the names that start with its first byte. When a
     * name holds a NAME_VALUE_SEPARATOR, every name is looked up on its own.
     *
     * @param found at least as many longs as {@code set} has names
     */
    public static void findValues(DirectBuffer buffer, int index, int length, NameSet set, long[] found) {
        byte[][] names = set.names;
        if (!set.plain) {
            for (int k = 0; k < names.length; k++) {
                found[k] = findValue(buffer, index, length, names[k]);
            }
            return;
        }
        for (int k = 0; k < names.length; k++) {
            found[k] = NOT_FOUND;
        }
        int end = index + length;
        int start = index;
        while (start < end) {
            int pieceEnd = indexOfPropertySeparator(buffer, start, end);
            if (pieceEnd > start) {
                byte first = buffer.getByte(start);
                for (int k = 0; k < names.length; k++) {
                    if (names[k][0] == first) {
                        long value = valueIfNamed(buffer, start, pieceEnd, names[k]);
                        if (value != NOT_FOUND) {
                            found[k] = value;
                        }
                    }
                }
            }
            start = pieceEnd + 1;
        }
    }

    /**
     * The value of the piece {@code buffer[start, pieceEnd)} if it is {@code name} (which holds no
     * NAME_VALUE_SEPARATOR), 0x01, then a non-empty value; else {@link #NOT_FOUND}. A piece whose first separator is
     * right after the name is exactly a piece that starts with the name and has that separator next.
     */
    private static long valueIfNamed(DirectBuffer buffer, int start, int pieceEnd, byte[] name) {
        int n = name.length;
        if (start + n < pieceEnd - 1 && buffer.getByte(start + n) == NAME_VALUE_SEPARATOR
                && nameMatches(buffer, start, name)) {
            return ((long) (start + n + 1) << 32) | (pieceEnd - start - n - 1);
        }
        return NOT_FOUND;
    }

    /** The first PROPERTY_SEPARATOR in {@code buffer[from, end)}, or {@code end}: eight bytes per step. */
    private static int indexOfPropertySeparator(DirectBuffer buffer, int from, int end) {
        int i = from;
        for (; i + Long.BYTES <= end; i += Long.BYTES) {
            long x = buffer.getLong(i, ByteOrder.LITTLE_ENDIAN) ^ SEPARATOR_IN_EVERY_BYTE;
            // Non-zero iff a byte of x is zero; its lowest set bit marks the first such byte (the lowest address).
            long zeroes = (x - LOW_BIT_OF_EVERY_BYTE) & ~x & HIGH_BIT_OF_EVERY_BYTE;
            if (zeroes != 0) {
                return i + (Long.numberOfTrailingZeros(zeroes) >>> 3);
            }
        }
        for (; i < end; i++) {
            if (buffer.getByte(i) == PROPERTY_SEPARATOR) {
                return i;
            }
        }
        return end;
    }

    private static boolean contains(byte[] bytes, byte b) {
        for (byte x : bytes) {
            if (x == b) {
                return true;
            }
        }
        return false;
    }

    /** {@link #findValue} one byte at a time; the reference, and the path for unusual names. */
    public static long findValueBytewise(DirectBuffer buffer, int index, int length, byte[] name) {
        long found = NOT_FOUND;
        int end = index + length;
        int start = index;
        while (start < end) {
            int pieceEnd = start;
            int sep = -1;
            while (pieceEnd < end) {
                byte b = buffer.getByte(pieceEnd);
                if (b == PROPERTY_SEPARATOR) {
                    break;
                }
                if (b == NAME_VALUE_SEPARATOR && sep < 0) {
                    sep = pieceEnd;
                }
                pieceEnd++;
            }
            if (sep > start && sep < pieceEnd - 1 && sep - start == name.length && nameMatches(buffer, start, name)) {
                found = ((long) (sep + 1) << 32) | (pieceEnd - sep - 1);
            }
            start = pieceEnd + 1;
        }
        return found;
    }

    private static boolean nameMatches(DirectBuffer buffer, int index, byte[] name) {
        for (int i = 0; i < name.length; i++) {
            if (buffer.getByte(index + i) != name[i]) {
                return false;
            }
        }
        return true;
    }

    /** Index part of a {@link #findValue} result. */
    public static int valueIndex(long found) {
        return (int) (found >>> 32);
    }

    /** Length part of a {@link #findValue} result. */
    public static int valueLength(long found) {
        return (int) found;
    }
}
