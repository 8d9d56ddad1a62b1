package io.sluice.broker.ha;

import io.sluice.remoting.transport.ClientTls;
import io.sluice.remoting.transport.ServerTls;
import io.sluice.remoting.transport.TlsEngines;
import io.sluice.remoting.transport.TlsMode;
import java.io.ByteArrayInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.nio.channels.SocketChannel;
import java.util.Objects;
import java.util.function.Supplier;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLException;

/**
 * TLS on the HA channel, from the broker's TLS settings (the client port's, so one certificate, one reload and one
 * client-certificate rule serve both). A master's HA port follows {@code tls.server.mode}: disabled, plain only;
 * permissive, a connection whose first byte starts a TLS handshake ({@link HaFrameDescriptor#TLS_HANDSHAKE}) gets
 * TLS and any other is plain; enforcing, the same, but a plain slave is refused once its hello is read (so it
 * learns why). A slave with {@code tls.enable} opens TLS at once, trusting {@code tls.client.trustCertPath} (any
 * certificate when empty) and presenting {@code tls.client.certPath} when the master asks for a certificate.
 *
 * <p>Immutable; thread-safe (each connection gets its own engine).
 */
public final class HaTls {

    /** Plain connections on both ends. */
    public static final HaTls PLAIN = new HaTls(TlsMode.DISABLED, null, null);

    private final TlsMode serverMode;
    /** Engines for accepted connections; null when the mode is disabled. */
    private final Supplier<SSLEngine> serverEngines;
    /** Engines for a slave's connections; null when the slave connects plain. */
    private final Supplier<SSLEngine> clientEngines;

    HaTls(TlsMode serverMode, Supplier<SSLEngine> serverEngines, Supplier<SSLEngine> clientEngines) {
        this.serverMode = Objects.requireNonNull(serverMode, "serverMode");
        if ((serverMode == TlsMode.DISABLED) != (serverEngines == null)) {
            throw new IllegalArgumentException("server engines are needed exactly when TLS mode " + serverMode
                    + " is not disabled");
        }
        this.serverEngines = serverEngines;
        this.clientEngines = clientEngines;
    }

    /**
     * The HA channel's TLS from the broker's: {@code server} for its HA port as a master, {@code client} for its
     * connection as a slave.
     *
     * @throws IllegalStateException naming the files when they cannot be loaded
     */
    public static HaTls of(ServerTls server, ClientTls client) {
        return new HaTls(server.mode(), server.mode() == TlsMode.DISABLED ? null : TlsEngines.forServer(server),
                client.enabled() ? TlsEngines.forClient(client) : null);
    }

    /** The master's mode, for logs. */
    TlsMode serverMode() {
        return serverMode;
    }

    /**
     * Opens a slave's accepted connection: reads its first byte (unless the port is plain) and runs the TLS
     * handshake when it starts one. Blocks, within the socket's read timeout.
     *
     * @throws SSLException when the handshake fails
     * @throws IOException  when the connection fails or ends first
     */
    HaConnection accept(SocketChannel channel, String remote) throws IOException {
        InputStream raw = channel.socket().getInputStream();
        if (serverMode == TlsMode.DISABLED) {
            return new HaConnection(raw, channel, HaConnection.PLAIN, "");
        }
        int first = raw.read();
        if (first < 0) {
            throw new EOFException("it closed the connection before sending anything");
        }
        if (first == HaFrameDescriptor.TLS_HANDSHAKE) {
            TlsChannel tls = new TlsChannel(serverEngines.get(), raw, channel, channel, new byte[] {(byte) first},
                    remote);
            tls.handshake();
            return new HaConnection(tls.inputStream(), tls, tls.describe(), "");
        }
        InputStream replayed = new SequenceInputStream(new ByteArrayInputStream(new byte[] {(byte) first}), raw);
        return new HaConnection(replayed, channel, HaConnection.PLAIN, serverMode == TlsMode.ENFORCING
                ? "this master's HA port takes TLS only (tls.server.mode=enforcing) and the slave connected without"
                + " it: set tls.enable=true on the slave" : "");
    }

    /**
     * Opens a slave's connection to {@code master}: TLS (the handshake run here) when this slave uses it, else
     * plain. Blocks, within the socket's read timeout.
     *
     * @throws SSLException naming the master and the likely causes when the handshake fails or the connection
     *                      ends in it
     */
    HaConnection connect(SocketChannel channel, String master) throws IOException {
        InputStream raw = channel.socket().getInputStream();
        if (clientEngines == null) {
            return new HaConnection(raw, channel, HaConnection.PLAIN, "");
        }
        TlsChannel tls = new TlsChannel(clientEngines.get(), raw, channel, channel, new byte[0], master);
        try {
            tls.handshake();
        } catch (IOException e) {
            // An end or a reset in the handshake is most often a plain port closing on a TLS hello.
            throw explained(e, master);
        }
        return new HaConnection(tls.inputStream(), tls, tls.describe(), "");
    }

    /**
     * A slave's TLS failure with {@code master} (in the handshake, or an alert after it: TLS 1.3 refuses a missing
     * client certificate after the client's side of the handshake ended), with the settings that cause it.
     */
    static SSLException explained(IOException e, String master) {
        return new SSLException("TLS with master " + master + " failed: " + e + " (the master's HA"
                + " port speaks TLS when its tls.server.mode is permissive or enforcing; its certificate must chain"
                + " to tls.client.trustCertPath, and a master requiring client certificates needs tls.client.certPath"
                + " and tls.client.keyPath)", e);
    }
}
