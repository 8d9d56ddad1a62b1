package io.sluice.broker.auth;

import io.sluice.remoting.protocol.RemotingCommand;
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
 * <p>Thread-safe: each thread uses its own {@link Mac}. Public for clients that sign (benchmarks, tests).
 */
public final class RequestSignature {
    public static final String ACCESS_KEY = "AccessKey";
    public static final String SIGNATURE = "Signature";
    public static final String SECURITY_TOKEN = "SecurityToken";
    private static final String ALGORITHM = "HmacSHA1";

    private static final ThreadLocal<Mac> MACS = ThreadLocal.withInitial(() -> {
        try {
            return Mac.getInstance(ALGORITHM);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("this JVM has no " + ALGORITHM, e);
        }
    });

    private RequestSignature() {
    }

    /** The raw signature of {@code request} under {@code secret}. */
    static byte[] compute(RemotingCommand request, String secret) {
        Mac mac = MACS.get();
        try {
            mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), ALGORITHM));
        } catch (InvalidKeyException e) {
            throw new IllegalStateException("HMAC key rejected", e);
        }
        Map<String, String> fields = request.extFields();
        String[] names = fields.keySet().toArray(new String[0]);
        Arrays.sort(names);
        for (String name : names) {
            if (!SIGNATURE.equals(name)) {
                mac.update(String.valueOf(fields.get(name)).getBytes(StandardCharsets.UTF_8));
            }
        }
        for (ByteBuffer part : request.bodyBuffers()) {
            mac.update(part);
        }
        return mac.doFinal();
    }

    /** The Base64 text a client sends in {@code Signature}: signs {@code request} as it is now. */
    public static String sign(RemotingCommand request, String secret) {
        return Base64.getEncoder().encodeToString(compute(request, secret));
    }

    /** Whether {@code signature} (Base64) is {@code request}'s under {@code secret}; compared in constant time. */
    static boolean verify(RemotingCommand request, String secret, String signature) {
        byte[] given;
        try {
            given = Base64.getDecoder().decode(signature);
        } catch (IllegalArgumentException e) {
            return false;
        }
        return MessageDigest.isEqual(compute(request, secret), given);
    }
}
