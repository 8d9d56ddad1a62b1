package io.sluice.broker.ha;

import java.io.Closeable;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.ByteChannel;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.GatheringByteChannel;
import java.nio.channels.WritableByteChannel;
import java.util.concurrent.locks.ReentrantLock;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLEngineResult;
import javax.net.ssl.SSLEngineResult.HandshakeStatus;
import javax.net.ssl.SSLException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * TLS over a blocking connection, with an {@link SSLEngine}: {@link #handshake} first, then read (as a stream or
 * into buffers) and write (gathering) plaintext as over the plain connection; {@link #close} says close_notify.
 * Ciphertext comes from an {@link InputStream} (so the socket's read timeout holds) and goes to a channel. A read
 * returns -1 once the peer said close_notify; a connection that ends without one is an {@link EOFException}.
 *
 * <p>Threads: one reader and any writers at a time. The reader holds {@link #readLock} (the inbound buffers), a
 * writer {@link #writeLock} (the outbound buffer and the channel); the engine allows a wrap and an unwrap at once.
 * A reader whose unwrap needs an answer (a key update) takes the write lock to send it. The handshake runs before
 * any other thread uses the channel.
 */
final class TlsChannel implements ByteChannel, GatheringByteChannel {

    private static final Logger LOG = LoggerFactory.getLogger(TlsChannel.class);
    private static final ByteBuffer[] NOTHING = {ByteBuffer.allocate(0)};
    /** Records read or written per system call at most: fewer calls for large transfers. */
    private static final int RECORDS_PER_CALL = 4;
    /** Wraps tried to flush a failed handshake's alert: it takes one; more means the engine has nothing to say. */
    private static final int MAX_ALERT_WRAPS = 4;

    private final SSLEngine engine;
    private final InputStream rawIn;
    private final WritableByteChannel rawOut;
    private final Closeable transport;
    private final String peer;
    private final ReentrantLock readLock = new ReentrantLock();
    private final ReentrantLock writeLock = new ReentrantLock();
    /** Ciphertext read and not yet unwrapped, in fill mode (data from 0 to position). Reader only. */
    private ByteBuffer netIn;
    /** Plaintext unwrapped and not yet read, in read mode (data from position to limit). Reader only. */
    private ByteBuffer appIn;
    /** Ciphertext wrapped and not yet written. Writers only. */
    private ByteBuffer netOut;
    private final InputStream inputView = new Input();
    private volatile boolean open = true;

    /**
     * @param engine    a new engine in client or server mode
     * @param rawIn     the connection's ciphertext from the peer
     * @param rawOut    the connection's ciphertext to the peer
     * @param transport closed by {@link #close}
     * @param alreadyRead ciphertext already taken from {@code rawIn} (a peeked first byte), unwrapped first
     * @param peer      the peer's address, for messages
     */
    TlsChannel(SSLEngine engine, InputStream rawIn, WritableByteChannel rawOut, Closeable transport,
               byte[] alreadyRead, String peer) {
        this.engine = engine;
        this.rawIn = rawIn;
        this.rawOut = rawOut;
        this.transport = transport;
        this.peer = peer;
        int packetBytes = engine.getSession().getPacketBufferSize();
        this.netIn = ByteBuffer.allocate(Math.max(packetBytes * RECORDS_PER_CALL, alreadyRead.length));
        this.netIn.put(alreadyRead);
        this.appIn = ByteBuffer.allocate(engine.getSession().getApplicationBufferSize()).flip();
        this.netOut = ByteBuffer.allocate(packetBytes * RECORDS_PER_CALL);
    }

    /**
     * Runs the handshake to its end, blocking. Before any read or write, on one thread.
     *
     * @throws SSLException when the handshake fails (an alert for the peer is sent first, when there is one)
     * @throws IOException  when the connection fails or ends during it
     */
    void handshake() throws IOException {
        readLock.lock();
        writeLock.lock();
        try {
            engine.beginHandshake();
            HandshakeStatus status = engine.getHandshakeStatus();
            while (status != HandshakeStatus.FINISHED && status != HandshakeStatus.NOT_HANDSHAKING) {
                switch (status) {
                    case NEED_WRAP -> status = wrapAndWrite(NOTHING, 0, 1).getHandshakeStatus();
                    case NEED_UNWRAP, NEED_UNWRAP_AGAIN -> status = unwrapToAppIn(true);
                    case NEED_TASK -> status = runTasks();
                    default -> throw new SSLException("unexpected TLS handshake status " + status);
                }
            }
            if (engine.isInboundDone() || engine.isOutboundDone()) {
                throw new SSLException("the TLS session with " + peer + " closed during the handshake");
            }
        } catch (SSLException e) {
            sendAlert();
            throw e;
        } finally {
            writeLock.unlock();
            readLock.unlock();
        }
    }

    /** The negotiated protocol and cipher suite, for logs. */
    String describe() {
        return engine.getSession().getProtocol() + " " + engine.getSession().getCipherSuite();
    }

    /** Plaintext from the peer as a stream (reads block; {@code available} counts unwrapped bytes). */
    InputStream inputStream() {
        return inputView;
    }

    /** Reads plaintext into {@code dst}: at least one byte, blocking; -1 after the peer's close_notify. */
    @Override
    public int read(ByteBuffer dst) throws IOException {
        requireOpen();
        if (!dst.hasRemaining()) {
            return 0;
        }
        readLock.lock();
        try {
            while (!appIn.hasRemaining()) {
                // A large read takes the plaintext straight from the engine, sparing a copy.
                if (dst.remaining() >= appIn.capacity()) {
                    int direct = unwrapInto(dst);
                    if (direct != 0) {
                        return direct;
                    }
                }
                if (unwrapInto(null) < 0) {
                    return -1;
                }
            }
            int n = Math.min(dst.remaining(), appIn.remaining());
            int limit = appIn.limit();
            appIn.limit(appIn.position() + n);
            dst.put(appIn);
            appIn.limit(limit);
            return n;
        } finally {
            readLock.unlock();
        }
    }

    /**
     * Unwraps at least one record's worth: into {@code dst} when given (returns the bytes produced; 0 when
     * {@code dst} was too small for the record, which then waits for the next call), else into {@link #appIn}.
     * Returns -1 after close_notify.
     */
    private int unwrapInto(ByteBuffer dst) throws IOException {
        while (true) {
            if (dst == null) {
                unwrapToAppIn(false);
                if (appIn.hasRemaining()) {
                    return appIn.remaining();
                }
                if (engine.isInboundDone()) {
                    return -1;
                }
                continue;
            }
            netIn.flip();
            SSLEngineResult result;
            try {
                result = engine.unwrap(netIn, dst);
            } finally {
                netIn.compact();
            }
            switch (result.getStatus()) {
                case OK -> {
                    afterUnwrap(result.getHandshakeStatus());
                    if (result.bytesProduced() > 0) {
                        return result.bytesProduced();
                    }
                }
                case BUFFER_UNDERFLOW -> readMore();
                case BUFFER_OVERFLOW -> {
                    return 0;
                }
                case CLOSED -> {
                    return -1;
                }
                default -> throw new SSLException("unexpected TLS unwrap status " + result.getStatus());
            }
        }
    }

    /**
     * One unwrap into {@link #appIn} (kept in read mode; what it holds stays), reading ciphertext first when no
     * whole record is buffered, growing the buffers as the engine asks. Returns the handshake status after it.
     */
    private HandshakeStatus unwrapToAppIn(boolean handshaking) throws IOException {
        while (true) {
            netIn.flip();
            appIn.compact();
            SSLEngineResult result;
            try {
                result = engine.unwrap(netIn, appIn);
            } finally {
                appIn.flip();
                netIn.compact();
            }
            switch (result.getStatus()) {
                case OK -> {
                    return handshaking ? result.getHandshakeStatus() : afterUnwrap(result.getHandshakeStatus());
                }
                case BUFFER_UNDERFLOW -> readMore();
                case BUFFER_OVERFLOW -> appIn = grow(appIn, engine.getSession().getApplicationBufferSize(), true);
                case CLOSED -> {
                    if (handshaking) {
                        throw new SSLException("the peer " + peer + " closed TLS during the handshake");
                    }
                    return HandshakeStatus.NOT_HANDSHAKING;
                }
                default -> throw new SSLException("unexpected TLS unwrap status " + result.getStatus());
            }
        }
    }

    /** After an unwrap outside the handshake: runs the engine's tasks and sends what it must answer. */
    private HandshakeStatus afterUnwrap(HandshakeStatus status) throws IOException {
        HandshakeStatus now = status;
        while (now == HandshakeStatus.NEED_TASK || now == HandshakeStatus.NEED_WRAP) {
            if (now == HandshakeStatus.NEED_TASK) {
                now = runTasks();
            } else {
                writeLock.lock();
                try {
                    now = wrapAndWrite(NOTHING, 0, 1).getHandshakeStatus();
                } finally {
                    writeLock.unlock();
                }
            }
        }
        return now;
    }

    /** Reads ciphertext into {@link #netIn}, growing it when a record does not fit. Reader only. */
    private void readMore() throws IOException {
        if (!netIn.hasRemaining()) {
            netIn = grow(netIn, engine.getSession().getPacketBufferSize(), false);
        }
        int n = rawIn.read(netIn.array(), netIn.arrayOffset() + netIn.position(), netIn.remaining());
        if (n < 0) {
            throw new EOFException("the TLS connection with " + peer + " ended without close_notify");
        }
        netIn.position(netIn.position() + n);
    }

    /** Writes all of {@code src}, blocking. */
    @Override
    public int write(ByteBuffer src) throws IOException {
        return (int) write(new ByteBuffer[] {src}, 0, 1);
    }

    @Override
    public long write(ByteBuffer[] srcs) throws IOException {
        return write(srcs, 0, srcs.length);
    }

    /** Writes all of {@code srcs[offset .. offset + length)}, blocking; returns the plaintext bytes written. */
    @Override
    public long write(ByteBuffer[] srcs, int offset, int length) throws IOException {
        requireOpen();
        long total = 0;
        for (int i = offset; i < offset + length; i++) {
            total += srcs[i].remaining();
        }
        writeLock.lock();
        try {
            long written = 0;
            while (written < total) {
                written += wrapAndWrite(srcs, offset, length).bytesConsumed();
            }
            return written;
        } finally {
            writeLock.unlock();
        }
    }

    /**
     * Wraps records from {@code srcs} into {@link #netOut} while they fit, then writes them (the last result counts
     * the bytes of all of them). Under the write lock.
     */
    private SSLEngineResult wrapAndWrite(ByteBuffer[] srcs, int offset, int length) throws IOException {
        netOut.clear();
        int consumed = 0;
        SSLEngineResult result;
        while (true) {
            result = engine.wrap(srcs, offset, length, netOut);
            consumed += result.bytesConsumed();
            if (result.getStatus() == SSLEngineResult.Status.BUFFER_OVERFLOW) {
                if (netOut.position() == 0) {
                    netOut = grow(netOut, engine.getSession().getPacketBufferSize(), false);
                    continue;
                }
                break;
            }
            if (result.getStatus() == SSLEngineResult.Status.CLOSED && result.bytesProduced() == 0) {
                throw new ClosedChannelException();
            }
            if (result.getHandshakeStatus() == HandshakeStatus.NEED_TASK) {
                runTasks();
            }
            if (result.getStatus() != SSLEngineResult.Status.OK || result.bytesConsumed() == 0
                    || !hasRemaining(srcs, offset, length)
                    || netOut.remaining() < engine.getSession().getPacketBufferSize()) {
                break;
            }
        }
        netOut.flip();
        while (netOut.hasRemaining()) {
            rawOut.write(netOut);
        }
        return new SSLEngineResult(result.getStatus(), result.getHandshakeStatus(), consumed,
                result.bytesProduced());
    }

    private static boolean hasRemaining(ByteBuffer[] srcs, int offset, int length) {
        for (int i = offset; i < offset + length; i++) {
            if (srcs[i].hasRemaining()) {
                return true;
            }
        }
        return false;
    }

    private HandshakeStatus runTasks() {
        Runnable task;
        while ((task = engine.getDelegatedTask()) != null) {
            task.run();
        }
        return engine.getHandshakeStatus();
    }

    /** After a failed handshake: sends the engine's alert, if it has one, so the peer learns why. */
    private void sendAlert() {
        engine.closeOutbound();
        try {
            for (int i = 0; i < MAX_ALERT_WRAPS && !engine.isOutboundDone(); i++) {
                wrapAndWrite(NOTHING, 0, 1);
            }
        } catch (IOException | RuntimeException e) {
            LOG.debug("could not send the TLS alert to {}: {}", peer, e.toString());
        }
    }

    /** A buffer of at least {@code minBytes} more room holding {@code buffer}'s data (in its mode). */
    private static ByteBuffer grow(ByteBuffer buffer, int minBytes, boolean readMode) {
        ByteBuffer bigger = ByteBuffer.allocate(Math.max(buffer.capacity() * 2, buffer.capacity() + minBytes));
        if (readMode) {
            bigger.put(buffer).flip();
        } else {
            bigger.put(buffer.flip());
        }
        return bigger;
    }

    private void requireOpen() throws ClosedChannelException {
        if (!open) {
            throw new ClosedChannelException();
        }
    }

    @Override
    public boolean isOpen() {
        return open;
    }

    /**
     * Says close_notify (unless a writer is blocked: the connection is then closed without it), then closes the
     * transport, which ends a blocked read or write. Idempotent; any thread.
     */
    @Override
    public void close() throws IOException {
        synchronized (this) {
            if (!open) {
                return;
            }
            open = false;
        }
        engine.closeOutbound();
        if (writeLock.tryLock()) {
            try {
                wrapAndWrite(NOTHING, 0, 1);
            } catch (IOException e) {
                LOG.debug("could not say close_notify to {}: {}", peer, e.toString());
            } finally {
                writeLock.unlock();
            }
        }
        transport.close();
    }

    /** The plaintext as a stream; reads through {@link #read(ByteBuffer)}. */
    private final class Input extends InputStream {
        private final byte[] one = new byte[1];

        @Override
        public int read() throws IOException {
            int n = read(one, 0, 1);
            return n < 0 ? -1 : one[0] & 0xFF;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            return TlsChannel.this.read(ByteBuffer.wrap(b, off, len));
        }

        @Override
        public int available() {
            readLock.lock();
            try {
                return appIn.remaining();
            } finally {
                readLock.unlock();
            }
        }

        @Override
        public void close() throws IOException {
            TlsChannel.this.close();
        }
    }
}
