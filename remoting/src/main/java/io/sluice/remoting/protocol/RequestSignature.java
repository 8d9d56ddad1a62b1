package io.sluice.remoting.protocol;

import io.netty.buffer.ByteBuf;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.InvalidKeyException;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.Base64;
import java.util.Map;
import javax.crypto.Mac;
import javax.crypto.ShortBufferException;
import javax.crypto.spec.SecretKeySpec;

/**
 * The signature of the Apache client's {@code AclClientRPCHook}: HMAC-SHA1, keyed with the user's secret (UTF-8),
 * over the values of every header field except {@code Signature}, in the order of their names, UTF-8, followed by
 * the body; sent Base64-encoded in the {@code Signature} field beside {@code AccessKey} (and the optional
 * {@code SecurityToken}, which is signed like any other field).
 *
 * <p>Thread-safe: each thread uses its own {@link Mac}. Clients sign with {@link #signInPlace}; the broker's access
 * control verifies.
 */
public final class RequestSignature {
    public static final String ACCESS_KEY = "AccessKey";
    public static final String SIGNATURE = "Signature";
    public static final String SECURITY_TOKEN = "SecurityToken";
    private static final String ALGORITHM = "HmacSHA1";
    /** The length of an HMAC-SHA1. */
    private static final int MAC_BYTES = 20;

    private static final ThreadLocal<Signer> SIGNERS = ThreadLocal.withInitial(Signer::new);

    private RequestSignature() {
    }

    /** The raw signature of {@code request} under {@code secret}. */
    public static byte[] compute(RemotingCommand request, String secret) {
        byte[] out = new byte[MAC_BYTES];
        SIGNERS.get().sign(request, secret, out);
        return out;
    }

    /**
     * One thread's signing state: its Mac, keyed with the secret of the last call (most calls of a connection's
     * I/O thread are one user's, so the key is rarely set again), and scratch space for the fields, their UTF-8
     * text and the result, reused from call to call, so a check allocates nothing once warm. Used by its thread
     * only.
     */
    private static final class Signer {
        private final Mac mac;
        private final byte[] result = new byte[MAC_BYTES];
        private String secret;
        private String[] names = new String[32];
        private String[] values = new String[32];
        private byte[] text = new byte[512];

        Signer() {
            try {
                mac = Mac.getInstance(ALGORITHM);
            } catch (GeneralSecurityException e) {
                throw new IllegalStateException("this JVM has no " + ALGORITHM, e);
            }
        }

        /** Writes the signature of {@code request} under {@code key} to {@code out} ({@link #MAC_BYTES} long). */
        void sign(RemotingCommand request, String key, byte[] out) {
            if (!key.equals(secret)) {
                try {
                    mac.init(new SecretKeySpec(key.getBytes(StandardCharsets.UTF_8), ALGORITHM));
                } catch (InvalidKeyException e) {
                    throw new IllegalStateException("HMAC key rejected", e);
                }
                secret = key;
            } else {
                mac.reset();
            }
            int n = collectSorted(request.extFieldsOrNull());
            int length = 0;
            int ascii = 0;
            while (ascii < n) {
                int end = appendAscii(values[ascii], length);
                if (end < 0) {
                    break;
                }
                length = end;
                ascii++;
            }
            if (ascii < n) {
                length = appendEncoded(ascii, n, length);
            }
            Arrays.fill(names, 0, n, null);
            Arrays.fill(values, 0, n, null);
            mac.update(text, 0, length);
            updateWithBody(request);
            try {
                mac.doFinal(out, 0);
            } catch (ShortBufferException e) {
                throw new IllegalStateException("a " + ALGORITHM + " result is " + MAC_BYTES + " bytes", e);
            }
        }

        /** {@link #sign} into this thread's scratch result, which stays valid until its next call. */
        byte[] signToScratch(RemotingCommand request, String key) {
            sign(request, key, result);
            return result;
        }

        /**
         * Copies the fields but {@code Signature} to {@link #names} and {@link #values}, sorted by name (an insertion
         * sort: a request has a few dozen fields at most); returns their count.
         */
        private int collectSorted(Map<String, String> fields) {
            if (fields == null) {
                return 0;
            }
            int count = fields.size();
            if (names.length < count) {
                names = new String[count * 2];
                values = new String[count * 2];
            }
            int n = 0;
            for (Map.Entry<String, String> field : fields.entrySet()) {
                String name = field.getKey();
                if (SIGNATURE.equals(name)) {
                    continue;
                }
                int at = n++;
                while (at > 0 && compareNames(names[at - 1], name) > 0) {
                    names[at] = names[at - 1];
                    values[at] = values[at - 1];
                    at--;
                }
                names[at] = name;
                values[at] = field.getValue();
            }
            return n;
        }

        /** {@link String#compareTo}'s order (by UTF-16 unit), without its dispatch on the strings' coding. */
        private static int compareNames(String left, String right) {
            int shorter = Math.min(left.length(), right.length());
            for (int i = 0; i < shorter; i++) {
                int difference = left.charAt(i) - right.charAt(i);
                if (difference != 0) {
                    return difference;
                }
            }
            return left.length() - right.length();
        }

        /** Feeds the body to the Mac without copying a heap buffer and without moving any buffer's position. */
        private void updateWithBody(RemotingCommand request) {
            for (ByteBuffer part : request.bodyParts()) {
                if (part.hasArray()) {
                    mac.update(part.array(), part.arrayOffset() + part.position(), part.remaining());
                } else {
                    mac.update(part.duplicate());
                }
            }
            ByteBuf owned = request.ownedBodyOrNull();
            if (owned != null) {
                mac.update(owned.nioBuffer());
            }
        }

        /**
         * Appends {@code value} to the text at {@code length} if it is ASCII (a byte per char); returns the new
         * length, or -1 when it is not ASCII (the text past {@code length} is then undefined).
         */
        private int appendAscii(String value, int length) {
            int chars = value.length();
            ensureText(length + chars);
            for (int i = 0; i < chars; i++) {
                char c = value.charAt(i);
                if (c >= 0x80) {
                    return -1;
                }
                text[length + i] = (byte) c;
            }
            return length + chars;
        }

        /**
         * Appends the values {@code from} (inclusive) to {@code to} as one UTF-8 string, as the Apache hook encodes
         * its concatenation: a surrogate pair split over two values is then one code point. Returns the new length.
         */
        private int appendEncoded(int from, int to, int length) {
            StringBuilder rest = new StringBuilder();
            for (int i = from; i < to; i++) {
                rest.append(values[i]);
            }
            byte[] encoded = rest.toString().getBytes(StandardCharsets.UTF_8);
            ensureText(length + encoded.length);
            System.arraycopy(encoded, 0, text, length, encoded.length);
            return length + encoded.length;
        }

        private void ensureText(int bytes) {
            if (text.length < bytes) {
                text = Arrays.copyOf(text, Math.max(text.length * 2, bytes));
            }
        }
    }

    /**
     * Adds {@code AccessKey} and then {@code Signature} to {@code request}, as the Apache client's hook does; the
     * request must not change afterwards.
     */
    public static RemotingCommand signInPlace(RemotingCommand request, String accessKey, String secretKey) {
        request.putExtField(ACCESS_KEY, accessKey);
        return request.putExtField(SIGNATURE, sign(request, secretKey));
    }

    /** The Base64 text a client sends in {@code Signature}: signs {@code request} as it is now. */
    public static String sign(RemotingCommand request, String secret) {
        return Base64.getEncoder().encodeToString(compute(request, secret));
    }

    /** Whether {@code signature} (Base64) is {@code request}'s under {@code secret}; compared in constant time. */
    public static boolean verify(RemotingCommand request, String secret, String signature) {
        byte[] given;
        try {
            given = Base64.getDecoder().decode(signature);
        } catch (IllegalArgumentException e) {
            return false;
        }
        return MessageDigest.isEqual(SIGNERS.get().signToScratch(request, secret), given);
    }
}
