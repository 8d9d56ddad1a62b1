package io.sluice.broker.auth;

import java.util.Locale;

/**
 * When a request's signature is verified ({@code authenticationStrategy}, Apache's key and its two strategies).
 */
public enum AuthenticationStrategy {
    /** Every request's signature is verified. */
    STATELESS,
    /**
     * A connection's first request from a user is verified; later requests of that user on the same connection
     * pass without their signature being checked until the memory of it expires, or the user is changed or removed.
     * Saves the HMAC over every body; a request injected into an established connection would pass, so use it
     * with TLS, as Apache advises.
     */
    STATEFUL;

    private static final String APACHE_PACKAGE = "org.apache.rocketmq.auth.authentication.strategy.";

    /**
     * {@code stateless} or {@code stateful} (any case), or Apache's class names for them.
     *
     * @throws IllegalArgumentException naming the accepted values
     */
    public static AuthenticationStrategy parse(String raw) {
        String name = raw.trim();
        if (name.startsWith(APACHE_PACKAGE)) {
            name = name.substring(APACHE_PACKAGE.length());
        }
        switch (name.toLowerCase(Locale.ROOT)) {
            case "stateless", "statelessauthenticationstrategy":
                return STATELESS;
            case "stateful", "statefulauthenticationstrategy":
                return STATEFUL;
            default:
                throw new IllegalArgumentException("expected stateless | stateful (or Apache's "
                        + APACHE_PACKAGE + "StatelessAuthenticationStrategy | StatefulAuthenticationStrategy)");
        }
    }

    /** The value as written in broker.conf. */
    public String text() {
        return name().toLowerCase(Locale.ROOT);
    }
}
