package io.sluice.broker.meta;

/**
 * Permission bits of a topic (and of a whole broker), as Apache RocketMQ's {@code PermName} defines them.
 *
 * <pre>
 *   bit value  name      meaning
 *   8          PRIORITY  (unused by clients)
 *   4          READ      consumers may pull
 *   2          WRITE     producers may send
 *   1          INHERIT   the topic is an auto-create template (TBW102)
 * </pre>
 *
 * Typical values: 6 (read + write) for ordinary topics, 7 for TBW102.
 *
 * <p>Stateless; thread-safe.
 */
public final class TopicPerm {

    /** Priority bit. */
    public static final int PRIORITY = 8;
    /** Read bit. */
    public static final int READ = 4;
    /** Write bit. */
    public static final int WRITE = 2;
    /** Inherit bit: the topic may serve as an auto-create template. */
    public static final int INHERIT = 1;
    /** Read + write: the permission of an ordinary topic. */
    public static final int READ_WRITE = READ | WRITE;
    /** The largest legal combination of bits. */
    public static final int ALL = PRIORITY | READ | WRITE | INHERIT;

    private TopicPerm() {
    }

    /** True when the READ bit is set. */
    public static boolean isReadable(int perm) {
        return (perm & READ) == READ;
    }

    /** True when the WRITE bit is set. */
    public static boolean isWriteable(int perm) {
        return (perm & WRITE) == WRITE;
    }

    /** True when the INHERIT bit is set. */
    public static boolean isInherited(int perm) {
        return (perm & INHERIT) == INHERIT;
    }

    /**
     * Checks that {@code perm} uses only the four defined bits.
     *
     * @return {@code perm}, for chaining
     * @throws IllegalArgumentException naming the value
     */
    public static int validate(int perm) {
        if (perm < 0 || perm > ALL) {
            throw new IllegalArgumentException("perm " + perm + " is out of range 0.." + ALL
                    + " (bits: 8 PRIORITY, 4 READ, 2 WRITE, 1 INHERIT)");
        }
        return perm;
    }

    /** A short human form, e.g. {@code RW-} for 6 or {@code RWX} for 7 (X = inherit). */
    public static String describe(int perm) {
        return (isReadable(perm) ? "R" : "-") + (isWriteable(perm) ? "W" : "-") + (isInherited(perm) ? "X" : "-");
    }
}
