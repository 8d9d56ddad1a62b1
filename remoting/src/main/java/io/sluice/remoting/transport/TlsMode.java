package io.sluice.remoting.transport;

/** Whether a server speaks TLS, with RocketMQ's names for the modes ({@code tls.server.mode}). */
public enum TlsMode {
    /** Plain connections only. */
    DISABLED,
    /** TLS and plain connections on one port, told apart by the first bytes a client sends. */
    PERMISSIVE,
    /** TLS connections only; a plain connection is closed at its first bytes. */
    ENFORCING;

    /**
     * Parses RocketMQ's spelling ({@code disabled}, {@code permissive}, {@code enforcing}; any case).
     *
     * @throws IllegalArgumentException naming the accepted values
     */
    public static TlsMode parse(String text) {
        return EnumText.parse(TlsMode.class, text, "TLS mode");
    }

    /** The configuration spelling, e.g. {@code permissive}. */
    public String text() {
        return EnumText.text(this);
    }
}
