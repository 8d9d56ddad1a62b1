package io.sluice.remoting.transport;

/** Whether a TLS server asks clients for a certificate ({@code tls.server.need.client.auth}, RocketMQ's values). */
public enum TlsClientAuth {
    /** No client certificate is asked for. */
    NONE,
    /** A client certificate is asked for and checked when sent; a client without one is still accepted. */
    OPTIONAL,
    /** A client without a certificate the trust certificates vouch for is refused during the handshake. */
    REQUIRE;

    /**
     * Parses {@code none}, {@code optional} or {@code require} (any case).
     *
     * @throws IllegalArgumentException naming the accepted values
     */
    public static TlsClientAuth parse(String text) {
        return EnumText.parse(TlsClientAuth.class, text, "client auth");
    }

    /** The configuration spelling, e.g. {@code require}. */
    public String text() {
        return EnumText.text(this);
    }
}
