package io.sluice.client.internal;

import java.nio.charset.StandardCharsets;

/**
 * UTF-8 length and encoding of strings straight into byte arrays, without an intermediate {@code byte[]} for the
 * common all-ASCII case. Stateless; thread-safe.
 */
final class Utf8 {

    private Utf8() {
    }

    /** The number of bytes {@code text} takes in UTF-8. */
    static int length(String text) {
        int n = text.length();
        for (int i = 0; i < n; i++) {
            if (text.charAt(i) >= 0x80) {
                return text.getBytes(StandardCharsets.UTF_8).length;
            }
        }
        return n;
    }

    /**
     * Writes {@code text} as UTF-8 into {@code out} from {@code at}; the caller has sized {@code out} with
     * {@link #length}.
     *
     * @return the index after the last byte written
     */
    static int write(String text, byte[] out, int at) {
        int n = text.length();
        for (int i = 0; i < n; i++) {
            char c = text.charAt(i);
            if (c >= 0x80) {
                byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
                System.arraycopy(bytes, 0, out, at, bytes.length);
                return at + bytes.length;
            }
            out[at + i] = (byte) c;
        }
        return at + n;
    }
}
