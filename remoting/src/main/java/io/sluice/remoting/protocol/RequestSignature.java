package io.sluice.remoting.protocol;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.InvalidKeyException;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.Base64;
import java.util.Map;
import javax.crypto.Mac;
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

    private static final ThreadLocal<Signer> SIGNERS = ThreadLocal.withInitial(Signer::new);

    private RequestSignature() {
    }

    /** The raw signature of {@code request} under {@code secret}. */
    public static byte[] compute(RemotingCommand request, String secret) {
        return SIGNERS.get().sign(request, secret);
    }

    /**
     * One thread's signing state: its Mac, keyed with the secret of the last call (most calls of a connection's
     * I/O thread are one user's, so the key is rarely set again), and scratch space for the field names and
     * values, reused from call to call. Used by its thread only.
     */
    private static final class Signer {
        private final Mac mac;
        private String secret;
        private String[] names = new String[32];
        private byte[] text = new byte[512];

        Signer() {
            try {
                mac = Mac.getInstance(ALGORITHM);
            } catch (GeneralSecurityException e) {
                throw new IllegalStateException("this JVM has no " + ALGORITHM, e);
            }
        }

        byte[] sign(RemotingCommand request, String key) {
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
            Map<String, String> fields = request.extFields();
            int count = fields.size();
            if (names.length < count) {
                names = new String[count * 2];
            }
            int n = 0;
            for (String name : fields.keySet()) {
                if (!SIGNATURE.equals(name)) {
                    names[n++] = name;
                }
            }
            Arrays.sort(names, 0, n);
            int length = 0;
            for (int i = 0; i < n; i++) {
                length = append(String.valueOf(fields.get(names[i])), length);
                names[i] = null;
            }
            mac.update(text, 0, length);
            for (ByteBuffer part : request.bodyBuffers()) {
                mac.update(part);
            }
            return mac.doFinal();
        }

        /** Appends {@code value} as UTF-8 to the text at {@code length}; returns the new length. */
        private int append(String value, int length) {
            int chars = value.length();
            if (text.length - length < chars * 3) {
                text = Arrays.copyOf(text, Math.max(text.length * 2, length + chars * 3));
            }
            for (int i = 0; i < chars; i++) {
                char c = value.charAt(i);
                if (c >= 0x80) {
                    // Not ASCII: the JDK's encoder for the rest (it also handles surrogate pairs and lone ones).
                    byte[] rest = value.substring(i).getBytes(StandardCharsets.UTF_8);
                    System.arraycopy(rest, 0, text, length, rest.length);
                    return length + rest.length;
                }
                text[length++] = (byte) c;
            }
            return length;
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
        return MessageDigest.isEqual(compute(request, secret), given);
    }
}
