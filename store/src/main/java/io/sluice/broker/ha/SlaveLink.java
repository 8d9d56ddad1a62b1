package io.sluice.broker.ha;

import io.sluice.store.MessageStore;
import io.sluice.store.log.ReadResult;
import io.sluice.store.log.ReadStatus;
import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The master's end of one slave's HA channel (framing in {@link HaFrameDescriptor}): it checks the slave's first
 * report, then streams the CommitLog from there, byte for byte, and follows the slave's acknowledgements.
 *
 * <p>Threads, one job each, both ending when the link closes: {@code sluice-ha-acks-<n>} owns reading (the first
 * report, then every acknowledgement; a silence longer than {@code silenceTimeoutMs} closes the link) and
 * {@code sluice-ha-push-<n>} owns writing (transfers while the log is ahead of what was sent, a heartbeat after
 * {@code heartbeatIntervalMs} of nothing; idle, it parks until {@link #wakeUp} or {@link #IDLE_PARK_NS}). The
 * positions are written by their owning thread and read by any.
 */
final class SlaveLink {

    private static final Logger LOG = LoggerFactory.getLogger(SlaveLink.class);
    /** Longest idle park of the pusher: appends that do not call {@link #wakeUp} are sent at most this late. */
    static final long IDLE_PARK_NS = TimeUnit.MILLISECONDS.toNanos(50);

    private final HaServer owner;
    private final SocketChannel channel;
    private final MessageStore store;
    private final HaSettings settings;
    private final String remote;
    private final Thread reader;
    private final Thread pusher;
    /** Written by the reader: the slave's acknowledged end; -1 until its first report is accepted. */
    private volatile long ackedPosition = -1;
    /**
     * Written by the pusher (first by the reader, before it starts the pusher): the end of what was sent or is
     * being sent.
     */
    private volatile long sentPosition;
    private volatile boolean parked;
    private volatile boolean open = true;

    SlaveLink(HaServer owner, SocketChannel channel, MessageStore store, HaSettings settings, String remote, int id) {
        this.owner = owner;
        this.channel = channel;
        this.store = store;
        this.settings = settings;
        this.remote = remote;
        this.reader = new Thread(this::runReader, "sluice-ha-acks-" + id);
        this.pusher = new Thread(this::runPusher, "sluice-ha-push-" + id);
        reader.setDaemon(true);
        pusher.setDaemon(true);
    }

    void start() {
        reader.start();
    }

    /** The slave's acknowledged end; -1 before its first report was accepted. */
    long ackedPosition() {
        return ackedPosition;
    }

    /** Tells an idle pusher that the log may have grown. Cheap; any thread. */
    void wakeUp() {
        if (parked) {
            LockSupport.unpark(pusher);
        }
    }

    private void runReader() {
        try {
            channel.socket().setSoTimeout((int) Math.min(Integer.MAX_VALUE, settings.silenceTimeoutMs()));
            DataInputStream in = new DataInputStream(new BufferedInputStream(channel.socket().getInputStream(),
                    HaFrameDescriptor.REPORT_BYTES * 64));
            long first = readReport(in);
            long end = store.logEndPosition();
            long start = store.logStartPosition();
            if (first > end) {
                throw new Refusal("its position " + first + " lies beyond the master's end " + end);
            }
            if (first < start) {
                throw new Refusal("its position " + first + " lies before the master's oldest data at " + start);
            }
            sentPosition = first;
            ackedPosition = first;
            LOG.info("slave {} connected at position {} (master end {})", remote, first, end);
            owner.onAcked();
            pusher.start();
            while (open) {
                long position = readReport(in);
                if (position < ackedPosition || position > sentPosition) {
                    throw new Refusal("its report " + position + " lies outside [" + ackedPosition + ", "
                            + sentPosition + "], what it had acknowledged and what was sent");
                }
                ackedPosition = position;
                owner.onAcked();
            }
        } catch (Refusal e) {
            owner.onRefused(remote, e.getMessage());
        } catch (SocketTimeoutException e) {
            LOG.warn("slave {} sent nothing for {} ms; closing its HA channel", remote, settings.silenceTimeoutMs());
        } catch (IOException e) {
            if (open) {
                LOG.info("HA channel of slave {} closed: {}", remote, e.toString());
            }
        } finally {
            close();
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

    private void runPusher() {
        ByteBuffer header = ByteBuffer.allocate(HaFrameDescriptor.TRANSFER_HEADER_BYTES);
        ByteBuffer[] frame = new ByteBuffer[2];
        long heartbeatNs = TimeUnit.MILLISECONDS.toNanos(settings.heartbeatIntervalMs());
        long lastSendNs = System.nanoTime();
        try {
            while (open) {
                long sent = sentPosition;
                if (sent < store.logEndPosition()) {
                    ReadResult read = store.readReplicable(sent, settings.maxTransferBytes());
                    if (!read.isFound()) {
                        LOG.warn("cannot send position {} to slave {}: {}{}", sent, remote, read.status(),
                                read.status() == ReadStatus.POSITION_DELETED
                                        ? " (retention deleted it before the slave had it)" : "");
                        return;
                    }
                    ByteBuffer body = read.buffer();
                    int size = body.remaining();
                    frame[0] = HaFrameDescriptor.transferHeader(header, sent, size);
                    frame[1] = body;
                    // Published before the write: the slave may acknowledge the bytes before the write returns.
                    sentPosition = sent + size;
                    writeFully(frame);
                    lastSendNs = System.nanoTime();
                } else if (System.nanoTime() - lastSendNs >= heartbeatNs) {
                    frame[0] = HaFrameDescriptor.transferHeader(header, sent, 0);
                    frame[1] = ByteBuffer.allocate(0);
                    writeFully(frame);
                    lastSendNs = System.nanoTime();
                } else {
                    parked = true;
                    // Re-check after publishing the flag: an append that missed it is seen here.
                    if (open && store.logEndPosition() == sentPosition) {
                        LockSupport.parkNanos(this, Math.min(IDLE_PARK_NS, heartbeatNs));
                    }
                    parked = false;
                }
            }
        } catch (IOException e) {
            if (open) {
                LOG.info("sending to slave {} failed: {}", remote, e.toString());
            }
        } finally {
            close();
        }
    }

    private void writeFully(ByteBuffer[] frame) throws IOException {
        while (frame[0].hasRemaining() || frame[1].hasRemaining()) {
            channel.write(frame);
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
        try {
            channel.close();
        } catch (IOException e) {
            LOG.warn("closing the HA channel of slave {} failed", remote, e);
        }
        LockSupport.unpark(pusher);
        owner.onClosed(this);
    }

    /** Waits for both threads to end, up to {@code timeoutMs} each. */
    void join(long timeoutMs) throws InterruptedException {
        reader.join(timeoutMs);
        if (pusher.isAlive()) {
            pusher.join(timeoutMs);
        }
    }

    /** A slave that breaks the protocol: refused and logged. */
    private static final class Refusal extends IOException {
        private static final long serialVersionUID = 1L;

        Refusal(String message) {
            super(message);
        }
    }
}
