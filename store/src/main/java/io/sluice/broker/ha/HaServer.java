package io.sluice.broker.ha;

import io.sluice.store.MessageStore;
import io.sluice.store.thread.AgentHost;
import io.sluice.store.thread.LoopAgent;
import java.io.Closeable;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.agrona.concurrent.AgentTerminationException;
import org.agrona.concurrent.NoOpIdleStrategy;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A master's HA service on {@code haListenPort}: accepts slaves, each served by a {@link SlaveLink}, and tells
 * {@link SyncReplication} (SYNC_MASTER) the position the slaves have acknowledged, as {@link SlaveAckRule} says:
 * in controller mode with {@code allAckInSyncStateSet} the lowest acknowledgement among the in-sync slaves (a send
 * is answered once every slave that may be elected has it), else the highest that {@code inSyncReplicas - 1}
 * (at least one) connected slaves have. A connection that breaks the protocol (garbage, a position beyond the
 * master's end) is refused and logged; the others and the broker go on.
 *
 * <p>Threads: {@code sluice-ha-accept} (an {@link AgentHost}) owns the listening socket (start: bind; duty: accept and
 * start a link; stop: {@link #close} closes the socket, which ends it); each link has its own two threads. The link
 * list is a copy-on-write list: links add and remove themselves, any thread reads it.
 */
public final class HaServer implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(HaServer.class);
    private static final long STOP_TIMEOUT_MS = 5_000;
    private static final long REFUSAL_LOG_INTERVAL_NS = TimeUnit.MINUTES.toNanos(1);

    private final MessageStore store;
    private final HaSettings settings;
    private final ReplicaGroupView group;
    private final HaAuthentication authentication;
    private final HaTls tls;
    private final SlaveAckRule ackRule;
    private final ServerSocketChannel listener;
    /** Null for an ASYNC_MASTER: nothing waits for the slaves. */
    private final SyncReplication sync;
    private final List<SlaveLink> links = new CopyOnWriteArrayList<>();
    private final AtomicLong refused = new AtomicLong();
    private final AtomicLong accepted = new AtomicLong();
    private final AtomicLong divergent = new AtomicLong();
    private final AtomicLong tlsSessions = new AtomicLong();
    private final AtomicInteger linkIds = new AtomicInteger();
    /** Set once by {@link #start}; read under this object's monitor. */
    private AgentHost acceptor;
    private volatile boolean running;
    /** The refusal last logged, and when: guarded by this object's monitor. */
    private String lastRefusal = "";
    private long lastRefusalLoggedNs;

    /**
     * @param listener the bound HA socket ({@link #bind}); this server owns it from now on
     * @param sync     the SYNC_MASTER waiters to release, or null
     * @param group    this master's epochs and in-sync slaves ({@link ReplicaGroupView#NONE} without a controller)
     * @param authentication which slaves' hellos are accepted ({@link HaAuthentication#OFF}: any)
     * @param ackRule  which slaves' acknowledgements a SYNC_MASTER's sends need
     * @param tls      which connections get TLS ({@link HaTls#PLAIN}: none)
     */
    public HaServer(MessageStore store, HaSettings settings, ServerSocketChannel listener, SyncReplication sync,
                    ReplicaGroupView group, HaAuthentication authentication, SlaveAckRule ackRule, HaTls tls) {
        this.store = store;
        this.settings = settings;
        this.group = group;
        this.authentication = authentication;
        this.ackRule = ackRule;
        this.tls = tls;
        this.listener = listener;
        this.sync = sync;
    }

    /**
     * Binds the HA port, before the rest of the broker exists (its address is registered with the name servers).
     *
     * @param address where to listen (port 0: any free port)
     * @throws IOException when the port cannot be bound
     */
    public static ServerSocketChannel bind(InetSocketAddress address) throws IOException {
        ServerSocketChannel channel = ServerSocketChannel.open();
        try {
            channel.setOption(StandardSocketOptions.SO_REUSEADDR, true);
            channel.bind(address);
            return channel;
        } catch (IOException | RuntimeException e) {
            channel.close();
            throw e;
        }
    }

    /** Starts accepting slaves. */
    public synchronized void start() {
        if (acceptor != null) {
            throw new IllegalStateException("HA server already started");
        }
        running = true;
        // No idle strategy: the cycle blocks in accept.
        acceptor = new AgentHost(new LoopAgent("sluice-ha-accept", this::acceptOne), NoOpIdleStrategy.INSTANCE);
        acceptor.start();
        LOG.info("HA server listening on port {} (tls.server.mode={})", port(), tls.serverMode().text());
    }

    /** The bound port; valid after {@link #start()}. */
    public int port() {
        try {
            return ((InetSocketAddress) listener.getLocalAddress()).getPort();
        } catch (IOException e) {
            throw new IllegalStateException("HA server not bound", e);
        }
    }

    /**
     * The acceptor's duty cycle: accepts one slave and starts its link. A failed accept goes to the thread's error
     * handler (counted, logged); the closed socket ends the thread.
     */
    private int acceptOne() throws IOException {
        SocketChannel channel;
        try {
            channel = listener.accept();
        } catch (ClosedChannelException e) {
            throw new AgentTerminationException("the HA listening socket is closed");
        }
        String remote = remoteOf(channel);
        try {
            channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
            channel.setOption(StandardSocketOptions.SO_KEEPALIVE, true);
        } catch (IOException e) {
            LOG.warn("cannot set the options of the HA connection from {}; closing it", remote, e);
            closeQuietly(channel);
            return 1;
        }
        accepted.incrementAndGet();
        SlaveLink link = new SlaveLink(this, channel, store, settings, group, remote, linkIds.incrementAndGet());
        links.add(link);
        if (!running) {
            link.close();
            throw new AgentTerminationException("the HA server is stopping");
        }
        link.start();
        return 1;
    }

    /** Tells links waiting on a quiet log that it may have grown (after an append). Cheap; any thread. */
    public void wakeUp() {
        for (SlaveLink link : links) {
            link.wakeUp();
        }
    }

    /** Whether sends wait for the slaves (SYNC_MASTER). */
    boolean waitsForSlaves() {
        return sync != null;
    }

    /** A link's acknowledged position moved (or a link or the in-sync set changed): computed anew, atomically. */
    void onAcked() {
        if (sync != null) {
            sync.onAcked(this::ackedPosition);
        }
    }

    /**
     * The in-sync set changed (controller mode): what the waiting sends need is recomputed, which releases those
     * the remaining in-sync slaves already have. Any thread.
     */
    public void inSyncSetChanged() {
        onAcked();
    }

    HaAuthentication authentication() {
        return authentication;
    }

    HaTls tls() {
        return tls;
    }

    /** A slave's TLS handshake succeeded. */
    void onTlsSession() {
        tlsSessions.incrementAndGet();
    }

    void onDivergentSlave() {
        divergent.incrementAndGet();
    }

    void onRefused(String remote, String reason) {
        refused.incrementAndGet();
        long nowNs = System.nanoTime();
        synchronized (this) {
            // A refused slave tries again every reconnectDelayMs: its repeats are counted, logged once a minute.
            if (reason.equals(lastRefusal) && nowNs - lastRefusalLoggedNs < REFUSAL_LOG_INTERVAL_NS) {
                return;
            }
            lastRefusal = reason;
            lastRefusalLoggedNs = nowNs;
        }
        LOG.warn("refused the HA connection from {}: {} ({} HA connections refused so far)", remote, reason,
                refused.get());
    }

    void onClosed(SlaveLink link) {
        links.remove(link);
        onAcked();
    }

    /**
     * What the slaves have acknowledged, as a SYNC_MASTER's sends need it: in controller mode with
     * {@code allAckInSyncStateSet}, the lowest acknowledgement among the in-sync slaves (0 for one not connected:
     * sends wait for it, or for the master to take it out of the set); else the highest position that
     * {@link SlaveAckRule#slaveAcks} distinct connected slaves have acknowledged (-1 while fewer are connected).
     */
    public long ackedPosition() {
        Optional<Set<Long>> inSync = group.inSyncSlaves();
        if (inSync.isPresent() && ackRule.allAckInSyncStateSet()) {
            if (inSync.get().isEmpty()) {
                return -1;
            }
            long min = Long.MAX_VALUE;
            for (long slaveId : inSync.get()) {
                min = Math.min(min, Math.max(0, ackedBy(slaveId)));
            }
            return min;
        }
        int need = ackRule.slaveAcks();
        return need == 1 ? ackedBy(-1) : ackedByQuorum(need);
    }

    /** The highest position {@code need} distinct connected slaves have acknowledged; -1 while fewer are. */
    private long ackedByQuorum(int need) {
        Object[] snapshot = links.toArray();
        long[] ids = new long[snapshot.length];
        long[] acked = new long[snapshot.length];
        int slaves = 0;
        for (Object element : snapshot) {
            SlaveLink link = (SlaveLink) element;
            long position = link.ackedPosition();
            if (position < 0) {
                continue;
            }
            long id = link.slaveId();
            int at = 0;
            while (at < slaves && ids[at] != id) {
                at++;
            }
            if (at == slaves) {
                ids[slaves] = id;
                acked[slaves++] = position;
            } else {
                acked[at] = Math.max(acked[at], position);
            }
        }
        if (slaves < need) {
            return -1;
        }
        Arrays.sort(acked, 0, slaves);
        return acked[slaves - need];
    }

    /** The highest acknowledgement of slave {@code slaveId}'s links (of any slave's for -1); -1 when none. */
    private long ackedBy(long slaveId) {
        long max = -1;
        for (SlaveLink link : links) {
            if (slaveId < 0 || link.slaveId() == slaveId) {
                max = Math.max(max, link.ackedPosition());
            }
        }
        return max;
    }

    /**
     * Per slave (the brokerId of its hello), the highest position its open links acknowledged; only links whose
     * hello was accepted, that is whose slave's log is this master's up to where it follows from. A master in
     * controller mode judges its in-sync set by these ({@link SyncStateTracker}). Any thread.
     */
    public Map<Long, Long> slaveAcks() {
        Map<Long, Long> acks = new HashMap<>();
        for (SlaveLink link : links) {
            long position = link.ackedPosition();
            if (position >= 0) {
                acks.merge(link.slaveId(), position, Math::max);
            }
        }
        return acks;
    }

    /**
     * Slaves whose hello was accepted, whose link is open, and whose position the waiting sends already count (so a
     * send issued once this number includes a slave is not answered SLAVE_NOT_AVAILABLE for want of it).
     */
    public int connectedSlaves() {
        int n = 0;
        for (SlaveLink link : links) {
            if (link.ackedPosition() >= 0 && link.counted()) {
                n++;
            }
        }
        return n;
    }

    /** HA connections refused for breaking the protocol so far. */
    public long refusedCount() {
        return refused.get();
    }

    /** Slaves told to cut a tail this master does not share, so far. */
    public long divergentCount() {
        return divergent.get();
    }

    /** HA connections whose TLS handshake succeeded, so far. */
    public long tlsSessionCount() {
        return tlsSessions.get();
    }

    /** HA connections accepted so far. */
    public long acceptedCount() {
        return accepted.get();
    }

    /** Stops accepting, closes every link and waits for their threads. Idempotent. */
    @Override
    public void close() {
        AgentHost accepting;
        synchronized (this) {
            if (!listener.isOpen()) {
                return;
            }
            running = false;
            accepting = acceptor;
        }
        closeQuietly(listener);
        if (accepting == null) {
            return;
        }
        List<SlaveLink> open = List.copyOf(links);
        for (SlaveLink link : open) {
            link.close();
        }
        accepting.close(STOP_TIMEOUT_MS);
        for (SlaveLink link : open) {
            link.join(STOP_TIMEOUT_MS);
        }
    }

    private static String remoteOf(SocketChannel channel) {
        try {
            return String.valueOf(channel.getRemoteAddress());
        } catch (IOException e) {
            return "(unknown peer)";
        }
    }

    private static void closeQuietly(Closeable closeable) {
        try {
            closeable.close();
        } catch (IOException e) {
            LOG.warn("closing {} failed", closeable, e);
        }
    }
}
