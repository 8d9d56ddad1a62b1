package io.sluice.broker.ha;

import io.sluice.remoting.transport.Credentials;
import io.sluice.store.MessageStore;
import io.sluice.store.log.RawAppendStatus;
import io.sluice.store.thread.AgentHost;
import io.sluice.store.thread.IntervalIdleStrategy;
import io.sluice.store.thread.LoopAgent;
import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.GatheringByteChannel;
import java.nio.channels.SocketChannel;
import java.security.SecureRandom;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import javax.net.ssl.SSLException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A slave's end of the HA channel (framing in {@link HaFrameDescriptor}): connects to its master, says hello with
 * its brokerId, where its CommitLog ends and its epoch history; the master answers where this log must end to
 * follow it. When that is the end, it records the master's epochs, stores every transfer at its position through
 * {@link MessageStore#appendReplicated} (the dispatcher builds the consume queues from it) and reports the new
 * end; a restarted slave thus continues from its recovered end. When the answer lies below the end (a tail written
 * under an epoch the master does not share, e.g. as an old master), it copies nothing and tells its
 * {@link ReplicaGroupView}, whose owner cuts the log and starts it again. The hello is signed with the broker's
 * inner credentials when it has them ({@link HaAuthentication}); a master that refuses it says why, and this slave
 * logs that and tries again every {@code reconnectDelayMs}. With {@code tls.enable} the connection runs under TLS
 * ({@link HaTls#connect}).
 *
 * <p>Thread {@code sluice-ha-replica} (an {@link AgentHost}) owns the connection. Start: {@link #start}. Duty cycle:
 * connect, say hello, read and store transfers until the channel breaks, the master breaks the protocol or stays
 * silent for {@code silenceTimeoutMs}. Idle: without a master address, or after a failure, it waits
 * {@code reconnectDelayMs} and tries again. Stop: {@link #close} closes the socket and waits for the thread.
 */
public final class ReplicaClient implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ReplicaClient.class);
    private static final long STOP_TIMEOUT_MS = 5_000;
    /** Report at least after this many stored bytes even while more transfers are already buffered. */
    private static final long REPORT_EVERY_BYTES = 1 << 20;

    private final MessageStore store;
    private final HaSettings settings;
    private final long selfId;
    private final ReplicaGroupView group;
    private final Supplier<Optional<String>> masterAddress;
    /** The credentials hellos are signed with; empty: unsigned. */
    private final Optional<Credentials> credentials;
    private final HaTls tls;
    /** Draws each hello's nonce. Replica thread only. */
    private final SecureRandom nonces = new SecureRandom();
    private final AgentHost thread;
    private final AtomicLong storedBytes = new AtomicLong();
    private final AtomicLong sessions = new AtomicLong();
    private final AtomicLong divergences = new AtomicLong();
    private final AtomicLong refusals = new AtomicLong();
    private final AtomicLong tlsSessions = new AtomicLong();
    private volatile SocketChannel socket;
    /** The open connection's writing end (under TLS: closing it says close_notify first); null between sessions. */
    private volatile GatheringByteChannel writing;
    private volatile boolean connected;
    private volatile boolean running;
    /** A failure was logged and the next ones of the same outage are not. Replica thread only. */
    private boolean quiet;

    /**
     * @param selfId        this slave's brokerId, sent in the hello
     * @param group         this slave's epochs and where the handshake's outcome goes
     * @param masterAddress the master's HA {@code host:port}, asked before every connection (empty: not known yet)
     * @param credentials   what the hello is signed with ({@code innerClientAuthenticationCredentials}), if any
     * @param tls           whether the connection runs under TLS ({@link HaTls#PLAIN}: no)
     */
    public ReplicaClient(MessageStore store, HaSettings settings, long selfId, ReplicaGroupView group,
                         Supplier<Optional<String>> masterAddress, Optional<Credentials> credentials, HaTls tls) {
        this.store = store;
        this.settings = settings;
        this.selfId = selfId;
        this.group = group;
        this.masterAddress = masterAddress;
        this.credentials = credentials;
        this.tls = tls;
        // A session blocks on the socket; between two sessions (no master known, or a failure) the retry delay.
        this.thread = new AgentHost(new LoopAgent("sluice-ha-replica", this::session),
                new IntervalIdleStrategy(TimeUnit.MILLISECONDS.toNanos(settings.reconnectDelayMs())));
    }

    /** Starts following the master. */
    public void start() {
        running = true;
        thread.start();
    }

    /** The duty cycle: one session with the master, if one is known, until it ends. Returns 0: then idle. */
    private int session() {
        Optional<String> address = running ? masterAddress.get() : Optional.empty();
        if (address.isPresent()) {
            try (SocketChannel s = connect(address.get())) {
                quiet = false;
                follow(s, address.get());
            } catch (IOException e) {
                if (running && !quiet) {
                    LOG.warn("replicating from master {} failed: {}; trying again every {} ms", address.get(),
                            e.toString(), settings.reconnectDelayMs());
                }
                quiet = true;
            } finally {
                connected = false;
                writing = null;
                socket = null;
            }
        }
        return 0;
    }

    private SocketChannel connect(String address) throws IOException {
        int colon = address.lastIndexOf(':');
        int port;
        try {
            port = Integer.parseInt(address.substring(colon + 1));
        } catch (NumberFormatException e) {
            throw new IOException("the master's HA address '" + address + "' is not host:port", e);
        }
        SocketChannel s = SocketChannel.open();
        socket = s;
        if (!running) {
            s.close();
            throw new IOException("stopped");
        }
        try {
            int timeoutMs = (int) Math.min(Integer.MAX_VALUE, settings.silenceTimeoutMs());
            s.socket().connect(new InetSocketAddress(address.substring(0, Math.max(0, colon)), port), timeoutMs);
            s.setOption(StandardSocketOptions.TCP_NODELAY, true);
            s.setOption(StandardSocketOptions.SO_KEEPALIVE, true);
            s.socket().setSoTimeout(timeoutMs);
            return s;
        } catch (IOException | RuntimeException e) {
            s.close();
            throw e;
        }
    }

    private void follow(SocketChannel s, String address) throws IOException {
        HaConnection connection = tls.connect(s, address);
        try (GatheringByteChannel out = connection.out()) {
            writing = out;
            follow(connection, out, address);
        } catch (SSLException e) {
            throw HaTls.explained(e, address);
        }
    }

    private void follow(HaConnection connection, GatheringByteChannel out, String address) throws IOException {
        DataInputStream in = new DataInputStream(new BufferedInputStream(connection.in(), 256 * 1024));
        ByteBuffer report = ByteBuffer.allocate(HaFrameDescriptor.REPORT_BYTES);
        long start = store.logEndPosition();
        handshake(in, out, start);
        connected = true;
        sessions.incrementAndGet();
        if (connection.encrypted()) {
            tlsSessions.incrementAndGet();
        }
        LOG.info("replicating from master {} from position {} ({})", address, start,
                connection.security());
        byte[] body = new byte[settings.maxTransferBytes()];
        long unreported = 0;
        while (running) {
            int magic = in.readInt();
            long position = in.readLong();
            int size = in.readInt();
            if (magic != HaFrameDescriptor.TRANSFER_MAGIC || size < 0 || size > HaFrameDescriptor.MAX_BODY_BYTES) {
                throw new IOException("the master broke the HA protocol: magic 0x" + Integer.toHexString(magic)
                        + ", body size " + size);
            }
            long end = store.logEndPosition();
            if (position != end) {
                throw new IOException("the master sent position " + position + " but this log ends at " + end);
            }
            if (size > 0) {
                if (size > body.length) {
                    body = new byte[size];
                }
                in.readFully(body, 0, size);
                RawAppendStatus status = store.appendReplicated(position, ByteBuffer.wrap(body, 0, size));
                if (status != RawAppendStatus.OK) {
                    throw new IOException("storing " + size + " bytes at position " + position + " failed: "
                            + status);
                }
                storedBytes.addAndGet(size);
                unreported += size;
            }
            // Acknowledge once the buffered transfers are stored (fewer reports under load), or every MiB.
            if (size == 0 || in.available() < HaFrameDescriptor.TRANSFER_HEADER_BYTES
                    || unreported >= REPORT_EVERY_BYTES) {
                send(out, report, store.logEndPosition());
                unreported = 0;
            }
        }
    }

    /**
     * Says hello and reads the answer; returns when this log may follow the master from {@code end}.
     *
     * @throws IOException when the master answers otherwise (a divergent tail is handed to the group first), or the
     *                     master's epochs cannot be recorded
     */
    private void handshake(DataInputStream in, GatheringByteChannel out, long end) throws IOException {
        SlaveHello unsigned = new SlaveHello(selfId, end, group.epochs(), System.currentTimeMillis(),
                nonces.nextLong(), credentials.map(Credentials::accessKey).orElse(""), new byte[0]);
        SlaveHello hello = credentials.map(c -> unsigned.withSignature(HaAuthentication.sign(unsigned,
                c.secretKey()))).orElse(unsigned);
        writeFully(out, HaFrameDescriptor.hello(hello));
        int magic = in.readInt();
        if (magic == HaFrameDescriptor.REFUSAL_MAGIC) {
            refusals.incrementAndGet();
            throw new IOException("the master refused this slave (brokerId " + selfId + ", "
                    + credentials.map(c -> "signed as user '" + c.accessKey() + "'").orElse("unsigned") + "): "
                    + HaFrameDescriptor.readRefusalReason(in));
        }
        if (magic != HaFrameDescriptor.ANSWER_MAGIC) {
            throw new IOException("the master broke the HA protocol: 0x" + Integer.toHexString(magic)
                    + " where its answer starts");
        }
        long follow = in.readLong();
        List<EpochEntry> masterEpochs = HaFrameDescriptor.readEpochs(in);
        if (follow < end) {
            divergences.incrementAndGet();
            group.onDivergence(follow);
            throw new IOException("this log ends at " + end + " but the master (epochs " + masterEpochs
                    + ") shares it only up to " + follow + ": the tail must be cut before it can follow");
        }
        if (follow > end) {
            throw new IOException("the master answered position " + follow + " beyond this log's end " + end);
        }
        group.onMasterEpochs(masterEpochs);
    }

    private static void send(GatheringByteChannel out, ByteBuffer report, long position) throws IOException {
        writeFully(out, HaFrameDescriptor.report(report, position));
    }

    private static void writeFully(GatheringByteChannel out, ByteBuffer frame) throws IOException {
        while (frame.hasRemaining()) {
            out.write(frame);
        }
    }

    /** True while a channel to the master is open and reported. */
    public boolean isConnected() {
        return connected;
    }

    /** CommitLog bytes stored from the master so far. */
    public long storedBytes() {
        return storedBytes.get();
    }

    /** Channels to a master opened so far. */
    public long sessions() {
        return sessions.get();
    }

    /** Handshakes whose answer said this log must be cut first, so far. */
    public long divergences() {
        return divergences.get();
    }

    /** Channels to a master opened under TLS so far. */
    public long tlsSessions() {
        return tlsSessions.get();
    }

    /** Hellos the master refused (with a reason), so far. */
    public long refusals() {
        return refusals.get();
    }

    /** Stops following: closes the channel and waits for the thread. Idempotent. */
    @Override
    public void close() {
        if (!running) {
            return;
        }
        running = false;
        GatheringByteChannel out = writing;
        SocketChannel s = socket;
        if (s != null) {
            try {
                if (out != null) {
                    out.close();
                }
                s.close();
            } catch (IOException e) {
                LOG.warn("closing the HA channel failed", e);
            }
        }
        thread.close(STOP_TIMEOUT_MS);
    }
}
