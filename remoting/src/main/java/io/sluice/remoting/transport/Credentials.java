package io.sluice.remoting.transport;

/**
 * The access key and secret a client signs its requests with, as the Apache client's {@code AclClientRPCHook}
 * does (see {@link io.sluice.remoting.protocol.RequestSignature}). Immutable; {@link #toString()} hides the secret.
 *
 * @param accessKey the user name
 * @param secretKey the user's secret, the HMAC key
 */
public record Credentials(String accessKey, String secretKey) {

    /** Validates both; the exception names the bad one (never the secret). */
    public Credentials {
        if (accessKey == null || accessKey.isEmpty()) {
            throw new IllegalArgumentException("accessKey must not be empty");
        }
        if (secretKey == null || secretKey.isEmpty()) {
            throw new IllegalArgumentException("secretKey of " + accessKey + " must not be empty");
        }
    }

    @Override
    public String toString() {
        return "Credentials{" + accessKey + "}";
    }
}
