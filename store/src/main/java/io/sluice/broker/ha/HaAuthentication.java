package io.sluice.broker.ha;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.LongSupplier;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Credentials on the HA channel (issue 25: inner traffic carries its own credentials). A slave signs its hello
 * with its {@code innerClientAuthenticationCredentials} ({@link #sign}): HMAC-SHA1, keyed with the secret
 * (UTF-8) as request signatures are, over every byte of the hello before the signature (layout in
 * {@link HaFrameDescriptor}), which covers its id, position, epochs, timestamp, nonce and access key. A master
 * with {@code authenticationEnabled} accepts a hello ({@link #refusalOf}) only when it is signed by a user allowed
 * to replicate, its timestamp lies within {@link #MAX_SKEW_MS} of the master's clock, and its nonce was not seen
 * in the last {@code 2 * MAX_SKEW_MS}: a recorded hello replayed later is refused for its age, one replayed at
 * once for its nonce.
 *
 * <p>Thread-safe: the link reader threads of one master share the remembered nonces, guarded by their map's
 * monitor, held briefly by whichever thread checks a hello.
 */
public final class HaAuthentication {

    /** Largest difference between a hello's timestamp and the master's clock: allows for unsynchronized clocks. */
    static final long MAX_SKEW_MS = 120_000;
    /** Most nonces remembered: slaves reconnect about once a second, so far more than a group of slaves needs. */
    static final int MAX_REMEMBERED_NONCES = 1 << 16;
    private static final String ALGORITHM = "HmacSHA1";

    /** Accepts every hello, signed or not (a master without {@code authenticationEnabled}). */
    public static final HaAuthentication OFF = new HaAuthentication(Optional.empty(), System::currentTimeMillis);

    /** Who may replicate: a user's secret by access key; empty when this master checks nothing. */
    private final Optional<Function<String, Optional<String>>> secretOf;
    private final LongSupplier clockMs;
    /** Accepted nonces and when each may be forgotten (ms), in the order accepted, so oldest first. */
    private final Map<Long, Long> seenNonces = new LinkedHashMap<>();

    private HaAuthentication(Optional<Function<String, Optional<String>>> secretOf, LongSupplier clockMs) {
        this.secretOf = secretOf;
        this.clockMs = clockMs;
    }

    /**
     * A master that accepts only hellos signed by a user allowed to replicate.
     *
     * @param secretOf the secret of a user allowed to replicate, by access key; empty for anyone else
     * @param clockMs  the master's wall clock (epoch milliseconds)
     */
    public static HaAuthentication requiring(Function<String, Optional<String>> secretOf, LongSupplier clockMs) {
        return new HaAuthentication(Optional.of(secretOf), clockMs);
    }

    /** Whether hellos must be signed. */
    public boolean required() {
        return secretOf.isPresent();
    }

    /** Why {@code hello} is refused; empty when it is accepted (then its nonce is remembered). */
    Optional<String> refusalOf(SlaveHello hello) {
        if (secretOf.isEmpty()) {
            return Optional.empty();
        }
        if (!hello.signed()) {
            return Optional.of("its hello carries no credentials, and this master has authenticationEnabled: give"
                    + " the slave innerClientAuthenticationCredentials of a user allowed to replicate");
        }
        Optional<String> secret = secretOf.get().apply(hello.accessKey());
        if (secret.isEmpty()) {
            return Optional.of("user '" + hello.accessKey() + "' is not allowed to replicate (unknown, or not a"
                    + " super user while authorizationEnabled)");
        }
        if (!MessageDigest.isEqual(sign(hello, secret.get()), hello.signature())) {
            return Optional.of("the signature of its hello does not match user '" + hello.accessKey()
                    + "'s secret");
        }
        long nowMs = clockMs.getAsLong();
        long skewMs = nowMs - hello.timestampMs();
        if (Math.abs(skewMs) > MAX_SKEW_MS) {
            return Optional.of("its hello's timestamp lies " + skewMs + " ms behind this master's clock (at most "
                    + MAX_SKEW_MS + " ms either way): an old hello replayed, or clocks too far apart");
        }
        return remember(hello.nonce(), nowMs);
    }

    /** Remembers an accepted nonce; why the hello is refused when it was seen already or too many are kept. */
    private Optional<String> remember(long nonce, long nowMs) {
        synchronized (seenNonces) {
            Iterator<Long> forgetAt = seenNonces.values().iterator();
            while (forgetAt.hasNext() && forgetAt.next() < nowMs) {
                forgetAt.remove();
            }
            if (seenNonces.containsKey(nonce)) {
                return Optional.of("its hello's nonce was used by an earlier hello: a replay");
            }
            if (seenNonces.size() >= MAX_REMEMBERED_NONCES) {
                return Optional.of("more than " + MAX_REMEMBERED_NONCES + " hellos in " + 2 * MAX_SKEW_MS
                        + " ms; try again later");
            }
            seenNonces.put(nonce, nowMs + 2 * MAX_SKEW_MS);
        }
        return Optional.empty();
    }

    /** The signature of {@code hello} (its bytes before the signature) under {@code secret}. */
    static byte[] sign(SlaveHello hello, String secret) {
        ByteBuffer signed = HaFrameDescriptor.helloUnsigned(hello);
        try {
            Mac mac = Mac.getInstance(ALGORITHM);
            mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), ALGORITHM));
            mac.update(signed.array(), 0, signed.limit());
            return mac.doFinal();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("this JVM cannot compute " + ALGORITHM, e);
        }
    }
}
