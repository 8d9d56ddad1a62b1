package io.sluice.broker.ha;

import io.sluice.store.MessageStore;
import io.sluice.store.log.ReadResult;
import io.sluice.store.log.ReadStatus;
import io.sluice.store.thread.AgentHost;
import io.sluice.store.thread.LoopAgent;
import io.sluice.store.thread.WakeableIdleStrategy;
import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.net.ProtocolException;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.channels.GatheringByteChannel;
import java.nio.channels.SocketChannel;
import javax.net.ssl.SSLException;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.agrona.concurrent.AgentTerminationException;
import org.agrona.concurrent.NoOpIdleStrategy;
import org.agrona.concurrent.SleepingIdleStrategy;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The master's end of one slave's HA channel (framing in {@link HaFrameDescriptor}): it answers the slave's hello
 * with where the slave's log must end (the epoch histories' agreement), then streams the CommitLog from there,
 * byte for byte, and follows the slave's acknowledgements. A slave whose log holds a tail this master does not
 * share is told where to cut it and its channel is closed; it cuts and connects again.
 *
 * <p>Threads ({@link AgentHost}s), one job each, both ending when the link closes: {@code sluice-ha-acks-<n>} owns
 * reading (the hello and the answer to it, then every acknowledgement; a silence longer than
 * {@code silenceTimeoutMs} closes the link) and {@code sluice-ha-push-<n>} owns writing (transfers while the log
 * is ahead of what was sent, a heartbeat after {@code heartbeatIntervalMs} of nothing; idle, it polls every
 * {@link #SYNC_POLL_NS} (ASYNC_MASTER: {@link #ASYNC_POLL_NS}) while the log grows, else parks until
 * {@link #wakeUp} or {@link #IDLE_PARK_NS}). The positions are written by their owning thread and read by any.
 * The reader opens the connection first ({@link HaTls#accept}: under TLS the handshake) and only then starts the
 * pusher, so each thread has its end of it.
 */
final class SlaveLink {

    private static final Logger LOG = LoggerFactory.getLogger(SlaveLink.class);
    /** Longest idle park of the pusher: appends that do not call {@link #wakeUp} are sent at most this late. */
    static final long IDLE_PARK_NS = TimeUnit.MILLISECONDS.toNanos(50);
    /**
     * While the log grows, the pusher looks this often instead of being woken per append (a wake-up per append
     * costs the master a context switch per message): a SYNC_MASTER's sends wait for it, so briefly.
     */
    static final long SYNC_POLL_NS = TimeUnit.MICROSECONDS.toNanos(500);
    /** The same for an ASYNC_MASTER, whose sends do not wait: fewer, larger transfers. */
    static final long ASYNC_POLL_NS = TimeUnit.MILLISECONDS.toNanos(5);
    /** The pusher polls while it sent something within this; after that it waits to be woken. */
    static final long ACTIVE_WINDOW_NS = TimeUnit.MILLISECONDS.toNanos(50);

    private final HaServer owner;
    private final SocketChannel channel;
    private final MessageStore store;
    private final HaSettings settings;
    private final ReplicaGroupView group;
    private final String remote;
    private final AgentHost reader;
    private final AgentHost pusher;
    /** Signalled by appends ({@link #wakeUp}) when the pusher waits on a quiet log. */
    private final PollThenWaitIdleStrategy pusherIdle;
    /** Written by the reader: the slave's acknowledged end; -1 until its hello is accepted. */
    private volatile long ackedPosition = -1;
    /** Written by the reader before {@link #ackedPosition} leaves -1: the slave's brokerId from its hello. */
    private volatile long slaveId = -1;
    /**
     * Written by the pusher (first by the reader, before it starts the pusher): the end of what was sent or is
     * being sent.
     */
    private volatile long sentPosition;
    private volatile boolean open = true;
    /** Set by the reader once the connection is open (after a TLS handshake); null before. */
    private volatile HaConnection connection;
    /** Set once the owner has counted this link's first acknowledgement for waiting sends (after its hello). */
    private volatile boolean counted;
    /** Reader thread only: the acknowledgement stream, once the hello was accepted. */
    private DataInputStream in;
    /** Pusher thread only. */
    private final ByteBuffer header = ByteBuffer.allocate(HaFrameDescriptor.TRANSFER_HEADER_BYTES);
    private final ByteBuffer[] frame = new ByteBuffer[2];
    private final long heartbeatNs;
    private long lastSendNs;

    SlaveLink(HaServer owner, SocketChannel channel, MessageStore store, HaSettings settings, ReplicaGroupView group,
              String remote, int id) {
        this.owner = owner;
        this.channel = channel;
        this.store = store;
        this.settings = settings;
        this.group = group;
        this.remote = remote;
        this.heartbeatNs = TimeUnit.MILLISECONDS.toNanos(settings.heartbeatIntervalMs());
        // No idle strategy: the reader's cycle blocks on the socket (bounded by silenceTimeoutMs).
        this.reader = new AgentHost(new LoopAgent("sluice-ha-acks-" + id, this::readCycle),
                NoOpIdleStrategy.INSTANCE);
        // Polls while the log grows; on a quiet log, idle until an append wakes it, at most until a heartbeat.
        WakeableIdleStrategy waiting = new WakeableIdleStrategy(
                new SleepingIdleStrategy(Math.min(IDLE_PARK_NS, heartbeatNs)),
                () -> !open || store.logEndPosition() != sentPosition);
        this.pusherIdle = new PollThenWaitIdleStrategy(waiting,
                owner.waitsForSlaves() ? SYNC_POLL_NS : ASYNC_POLL_NS, ACTIVE_WINDOW_NS);
        this.pusher = new AgentHost(new LoopAgent("sluice-ha-push-" + id, this::pushCycle), pusherIdle);
    }

    void start() {
        reader.start();
    }

    /** The slave's acknowledged end; -1 before its hello was accepted. */
    /** Whether the owner counts this link for waiting sends: its hello was accepted and its position taken in. */
    boolean counted() {
        return counted;
    }

    long ackedPosition() {
        return ackedPosition;
    }

    /** The slave's brokerId, as its hello said; -1 before. */
    long slaveId() {
        return slaveId;
    }

    /** Tells an idle pusher that the log may have grown. Cheap; any thread. */
    void wakeUp() {
        if (pusherIdle.needsWakeUp()) {
            pusher.wakeUp();
        }
    }

    /** The reader's duty cycle: the hello (then starts the pusher), or one acknowledgement. */
    private int readCycle() {
        if (!open) {
            throw new AgentTerminationException("the HA link of slave " + remote + " is closed");
        }
        try {
            if (in == null) {
                if (!acceptHello()) {
                    close();
                    throw new AgentTerminationException("slave " + remote + " must cut its log first");
                }
            } else {
                long position = readReport(in);
                if (position < ackedPosition || position > sentPosition) {
                    throw new Refusal("its report " + position + " lies outside [" + ackedPosition + ", "
                            + sentPosition + "], what it had acknowledged and what was sent");
                }
                ackedPosition = position;
                owner.onAcked();
            }
            return 1;
        } catch (Refusal e) {
            owner.onRefused(remote, e.getMessage());
            if (in == null) {
                tellRefused(e.getMessage());
            }
        } catch (SocketTimeoutException e) {
            LOG.warn("slave {} sent nothing for {} ms; closing its HA channel", remote, settings.silenceTimeoutMs());
        } catch (IOException e) {
            if (open) {
                LOG.info("HA channel of slave {} closed: {}", remote, e.toString());
            }
        }
        close();
        throw new AgentTerminationException("the HA link of slave " + remote + " is closed");
    }

    /**
     * Reads the hello and answers it. True: the slave follows from its end and the pusher is started; false: the
     * slave must cut its log first (the channel is to be closed).
     */
    private boolean acceptHello() throws IOException {
        channel.socket().setSoTimeout((int) Math.min(Integer.MAX_VALUE, settings.silenceTimeoutMs()));
        HaConnection opened;
        try {
            opened = owner.tls().accept(channel, remote);
        } catch (SSLException e) {
            throw new Refusal("the TLS handshake failed: " + e.getMessage());
        }
        if (opened.encrypted()) {
            owner.onTlsSession();
        }
        connection = opened;
        if (!open) {
            throw new IOException("closed");
        }
        DataInputStream stream = new DataInputStream(new BufferedInputStream(opened.in(),
                HaFrameDescriptor.REPORT_BYTES * 64));
        int magic = stream.readInt();
        if (magic != HaFrameDescriptor.HELLO_MAGIC) {
            throw new Refusal("it sent 0x" + Integer.toHexString(magic) + " where a slave hello starts (0x"
                    + Integer.toHexString(HaFrameDescriptor.HELLO_MAGIC) + ")"
                    + (magic >>> 24 == HaFrameDescriptor.TLS_HANDSHAKE
                    ? ": a TLS handshake, but this master's HA port is plain (tls.server.mode=disabled)" : ""));
        }
        SlaveHello hello;
        try {
            hello = HaFrameDescriptor.readHello(stream);
        } catch (ProtocolException e) {
            throw new Refusal("its hello carries " + e.getMessage());
        }
        if (!opened.refusal().isEmpty()) {
            throw new Refusal(opened.refusal());
        }
        Optional<String> unauthenticated = owner.authentication().refusalOf(hello);
        if (unauthenticated.isPresent()) {
            throw new Refusal("authentication failed for slave brokerId " + hello.slaveId() + ": "
                    + unauthenticated.get());
        }
        long id = hello.slaveId();
        long slaveEnd = hello.position();
        List<EpochEntry> slaveEpochs = hello.epochs();
        if (slaveEnd < 0) {
            throw new Refusal("it reported a negative position " + slaveEnd);
        }
        List<EpochEntry> masterEpochs = group.epochs();
        long end = store.logEndPosition();
        long start = store.logStartPosition();
        long follow = masterEpochs.isEmpty() ? slaveEnd
                : EpochFile.truncationPoint(slaveEpochs, slaveEnd, masterEpochs, end);
        if (follow > end) {
            throw new Refusal("its position " + follow + " lies beyond the master's end " + end);
        }
        if (follow < start) {
            throw new Refusal("its position " + follow + " lies before the master's oldest data at " + start);
        }
        writeFully(opened.out(), HaFrameDescriptor.answer(follow, masterEpochs));
        if (follow < slaveEnd) {
            owner.onDivergentSlave();
            LOG.warn("slave {} (brokerId {}, epochs {}) ends at {}, but this master (epochs {}) shares its log only"
                    + " up to {}: told it to cut its tail there before it follows", remote, id, slaveEpochs,
                    slaveEnd, masterEpochs, follow);
            return false;
        }
        in = stream;
        sentPosition = follow;
        slaveId = id;
        ackedPosition = follow;
        LOG.info("slave {} (brokerId {}) connected at position {} (master end {}, {})", remote, id, follow, end,
                opened.security());
        owner.onAcked();
        counted = true;
        lastSendNs = System.nanoTime();
        pusher.start();
        return true;
    }

    /**
     * Tells a slave whose hello was refused why, so that its log says so too (not one whose TLS handshake failed:
     * the handshake's alert told it); the link closes next.
     */
    private void tellRefused(String reason) {
        HaConnection opened = connection;
        if (opened == null) {
            return;
        }
        try {
            writeFully(opened.out(), HaFrameDescriptor.refusal(reason));
        } catch (IOException e) {
            LOG.info("could not tell {} why its HA hello was refused: {}", remote, e.toString());
        }
    }

    private static long readReport(DataInputStream in) throws IOException {
        int magic = in.readInt();
        if (magic != HaFrameDescriptor.REPORT_MAGIC) {
            throw new Refusal("it sent 0x" + Integer.toHexString(magic) + " where a slave report starts (0x"
                    + Integer.toHexString(HaFrameDescriptor.REPORT_MAGIC) + ")");
        }
        long position = in.readLong();
        if (position < 0) {
            throw new Refusal("it reported a negative position " + position);
        }
        return position;
    }

    /** The pusher's duty cycle: one transfer or heartbeat (1), or nothing to send (0: idle). */
    private int pushCycle() {
        if (!open) {
            throw new AgentTerminationException("the HA link of slave " + remote + " is closed");
        }
        try {
            if (pushOnce()) {
                return 1;
            }
            if (System.nanoTime() - lastSendNs < heartbeatNs) {
                return 0;
            }
            frame[0] = HaFrameDescriptor.transferHeader(header, sentPosition, 0);
            frame[1] = ByteBuffer.allocate(0);
            writeFully(connection.out(), frame);
            lastSendNs = System.nanoTime();
            return 1;
        } catch (IOException e) {
            if (open) {
                LOG.info("sending to slave {} failed: {}", remote, e.toString());
            }
        } catch (AgentTerminationException e) {
            close();
            throw e;
        }
        close();
        throw new AgentTerminationException("the HA link of slave " + remote + " is closed");
    }

    /** Sends one transfer if the log is ahead of what was sent; false if there is nothing to send. */
    private boolean pushOnce() throws IOException {
        long sent = sentPosition;
        if (sent >= store.logEndPosition()) {
            return false;
        }
        ReadResult read = store.readReplicable(sent, settings.maxTransferBytes());
        if (!read.isFound()) {
            LOG.warn("cannot send position {} to slave {}: {}{}", sent, remote, read.status(),
                    read.status() == ReadStatus.POSITION_DELETED
                            ? " (retention deleted it before the slave had it)" : "");
            throw new AgentTerminationException("slave " + remote + " cannot be served");
        }
        ByteBuffer body = read.buffer();
        int size = body.remaining();
        frame[0] = HaFrameDescriptor.transferHeader(header, sent, size);
        frame[1] = body;
        // Published before the write: the slave may acknowledge the bytes before the write returns.
        sentPosition = sent + size;
        writeFully(connection.out(), frame);
        lastSendNs = System.nanoTime();
        return true;
    }

    private static void writeFully(GatheringByteChannel out, ByteBuffer... frame) throws IOException {
        for (ByteBuffer part : frame) {
            while (part.hasRemaining()) {
                out.write(frame);
            }
        }
    }

    /** Closes the channel (which ends both threads) and tells the owner once. Idempotent; any thread. */
    void close() {
        synchronized (this) {
            if (!open) {
                return;
            }
            open = false;
        }
        HaConnection opened = connection;
        try {
            if (opened != null) {
                opened.out().close();
            }
            channel.close();
        } catch (IOException e) {
            LOG.warn("closing the HA channel of slave {} failed", remote, e);
        }
        pusher.wakeUp();
        owner.onClosed(this);
    }

    /** Waits for both threads to end, up to {@code timeoutMs} each (logs one that does not). After {@link #close}. */
    void join(long timeoutMs) {
        reader.close(timeoutMs);
        pusher.close(timeoutMs);
    }

    /** A slave that breaks the protocol: refused and logged. */
    private static final class Refusal extends IOException {
        private static final long serialVersionUID = 1L;

        Refusal(String message) {
            super(message);
        }
    }
}
