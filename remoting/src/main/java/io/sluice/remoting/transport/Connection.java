package io.sluice.remoting.transport;

import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.handler.codec.EncoderException;
import io.netty.util.concurrent.EventExecutor;
import io.sluice.remoting.protocol.MalformedHeaderException;
import io.sluice.remoting.protocol.RemotingCommand;
import io.sluice.remoting.protocol.ResponseCode;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.ToIntFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * State of one channel: dispatch of inbound requests to its lane, the response path, in-flight accounting with
 * the read pause, and the outstanding requests it sent to the peer.
 *
 * <p>Threads: inbound events arrive on the channel's I/O thread, which alone decides to pause reading and alone
 * resumes it. Handlers run on the lane, their executor or (when registered so) the I/O thread itself; responses
 * and releases may come from any thread.
 * The in-flight counters are atomics; {@code readPaused} is volatile and written only on the I/O thread.
 */
final class Connection implements ConnectionContext {
    private static final Logger log = LoggerFactory.getLogger(Connection.class);
    /**
     * How often the outstanding requests are checked for their deadline while there are any, so a request times
     * out up to this much late (Apache's client checks once a second). One check per period replaces a timer per
     * request (an insertion into, and a removal from, the I/O thread's timer heap for every request); a shorter
     * period makes the checks a noticeable share of a busy client's I/O thread.
     */
    private static final long SWEEP_PERIOD_MS = 100;

    private final Channel channel;
    private final Endpoint endpoint;
    private final EventExecutor lane;
    private final FlowLimits limits;
    private final RemotingCounters counters;
    private final AtomicInteger inFlightRequests = new AtomicInteger();
    private final AtomicLong inFlightBytes = new AtomicLong();
    /** Requests sent to the peer and not yet answered, by opaque; their deadlines are checked by {@link #sweep}. */
    private final ConcurrentHashMap<Integer, Outstanding> outstanding = new ConcurrentHashMap<>();
    /** Whether a {@link #sweep} is due. */
    private final AtomicBoolean sweepScheduled = new AtomicBoolean();
    /** Requests held until the end of the current read burst (see {@link HandlerOptions}). I/O thread only. */
    private final List<BurstEntry> burst = new ArrayList<>();
    private volatile boolean readPaused;
    private volatile Object attachment;
    private volatile String remoteAddressText;

    Connection(Channel channel, Endpoint endpoint, EventExecutor lane) {
        this.channel = channel;
        this.endpoint = endpoint;
        this.lane = lane;
        this.limits = endpoint.limits;
        this.counters = endpoint.counters;
    }

    // ------------------------------------------------------------------------------------ inbound (I/O thread)

    void onActive() {
        endpoint.onConnected(this);
    }

    /** A request held for the end of its read burst. */
    private record BurstEntry(int group, RequestHandler handler, InboundCommand inbound, boolean flowControlled) {
    }

    private static final Comparator<BurstEntry> BURST_ORDER = Comparator.comparingInt(BurstEntry::group);

    void onInactive() {
        // Requests held for a burst that never ended: the peer is gone, so nobody waits for their answers.
        burst.forEach(entry -> entry.inbound().command().releaseBody());
        burst.clear();
        ConnectionClosedException closed = new ConnectionClosedException("connection " + id() + " to "
                + remoteAddressText() + " closed");
        outstanding.values().forEach(future -> future.completeExceptionally(closed));
        outstanding.clear();
        endpoint.onClosed(this);
    }

    void onInbound(InboundCommand inbound) {
        RemotingCommand command = inbound.command();
        if (command.isResponse()) {
            Outstanding future = outstanding.remove(command.opaque());
            if (future == null) {
                counters.unmatchedResponses.incrementAndGet();
            } else {
                future.complete(command);
            }
            return;
        }
        counters.requests.incrementAndGet();
        if (command.isOneway()) {
            counters.onewayRequests.incrementAndGet();
        }
        GateVerdict verdict = endpoint.gate.check(this, command);
        if (!verdict.passed()) {
            refuse(inbound, verdict);
            return;
        }
        HandlerRegistry.Registration registration = endpoint.handlers.lookup(command.code());
        boolean flowControlled = registration.options().flowControlled();
        if (flowControlled) {
            acquire(inbound.frameBytes());
        }
        if (registration.options().onIoThread()) {
            ToIntFunction<RemotingCommand> group = registration.options().burstGroup();
            if (group != null) {
                burst.add(new BurstEntry(group.applyAsInt(command), registration.handler(), inbound,
                        flowControlled));
            } else {
                invoke(registration.handler(), inbound, flowControlled);
            }
            return;
        }
        Executor executor = registration.options().executor() != null ? registration.options().executor() : lane;
        QueueBound bound = registration.options().queueBound();
        if (bound != null && !bound.tryEnter()) {
            counters.requestsRefusedBusy.incrementAndGet();
            command.releaseBody();
            complete(inbound, flowControlled, RemotingCommand.response(ResponseCode.SYSTEM_BUSY,
                    bound.busyRemark(command.code())), null);
            return;
        }
        try {
            executor.execute(() -> {
                if (bound != null) {
                    bound.leave();
                }
                invoke(registration.handler(), inbound, flowControlled);
            });
        } catch (RuntimeException rejected) {
            if (bound != null) {
                bound.leave();
            }
            command.releaseBody();
            complete(inbound, flowControlled, null, rejected);
        }
    }

    /** Answers a request the gate refused (a oneway one is dropped); no handler sees it. I/O thread only. */
    private void refuse(InboundCommand inbound, GateVerdict verdict) {
        RemotingCommand request = inbound.command();
        request.releaseBody();
        if (!request.isOneway()) {
            write(inbound, false, RemotingCommand.response(verdict.code(), verdict.remark()), true);
        }
    }

    /**
     * End of a read burst (I/O thread): runs the requests held for it, grouped by their key, in arrival order within
     * a group (a stable sort).
     */
    void onReadComplete() {
        int n = burst.size();
        if (n == 0) {
            return;
        }
        if (n > 1) {
            burst.sort(BURST_ORDER);
        }
        for (int i = 0; i < n; i++) {
            BurstEntry entry = burst.get(i);
            invoke(entry.handler(), entry.inbound(), entry.flowControlled());
        }
        burst.clear();
    }

    // ---------------------------------------------------------------------------- handler and response path

    private void invoke(RequestHandler handler, InboundCommand inbound, boolean flowControlled) {
        CompletableFuture<RemotingCommand> result;
        try {
            result = handler.handle(this, inbound.command());
            if (result == null) {
                result = CompletableFuture.failedFuture(new IllegalStateException("handler for request code "
                        + inbound.command().code() + " returned no future"));
            }
        } catch (Throwable e) {
            result = CompletableFuture.failedFuture(e);
        } finally {
            // A body left in the received frame (HandlerOptions.bodyInFrame) is the handler's only while it runs.
            inbound.command().releaseBody();
        }
        result.whenComplete((response, error) -> complete(inbound, flowControlled, response, error));
    }

    private void complete(InboundCommand inbound, boolean flowControlled, RemotingCommand response,
                          Throwable error) {
        RemotingCommand request = inbound.command();
        if (request.isOneway()) {
            if (error != null) {
                counters.handlerErrors.incrementAndGet();
                long suppressed = endpoint.systemErrorLog.admit();
                if (suppressed != LogLimiter.SUPPRESS) {
                    log.warn("Handler for oneway request code {} from {} failed{}", request.code(),
                            remoteAddressText(), LogLimiter.suffix(suppressed), unwrap(error));
                }
            }
            release(inbound, flowControlled);
            return;
        }
        write(inbound, flowControlled, answer(request, response, error), true);
    }

    /**
     * The response to write: the handler's, or SYSTEM_ERROR for a failure. Every SYSTEM_ERROR answer is counted
     * and logged with its cause (the exception with its stack, else the remark), within the endpoint's
     * {@link LogLimiter}: a client sending bad requests cannot grow the log at will.
     */
    private RemotingCommand answer(RemotingCommand request, RemotingCommand response, Throwable error) {
        RemotingCommand answer;
        Throwable cause = null;
        if (error != null) {
            cause = unwrap(error);
            counters.handlerErrors.incrementAndGet();
            answer = RemotingCommand.response(ResponseCode.SYSTEM_ERROR, cause instanceof MalformedHeaderException
                    ? cause.getMessage() : cause.toString());
        } else if (response == null) {
            counters.handlerErrors.incrementAndGet();
            answer = RemotingCommand.response(ResponseCode.SYSTEM_ERROR,
                    "handler for request code " + request.code() + " completed without a response");
        } else {
            answer = response;
        }
        if (answer.code() == ResponseCode.SYSTEM_ERROR) {
            logSystemError(request, answer.remark(), cause instanceof MalformedHeaderException ? null : cause);
        }
        return answer;
    }

    private void logSystemError(RemotingCommand request, String remark, Throwable cause) {
        counters.systemErrors.incrementAndGet();
        long suppressed = endpoint.systemErrorLog.admit();
        if (suppressed == LogLimiter.SUPPRESS) {
            return;
        }
        if (cause == null) {
            log.warn("Request code {} from {} answered SYSTEM_ERROR: {}{}", request.code(), remoteAddressText(),
                    remark, LogLimiter.suffix(suppressed));
        } else {
            log.warn("Request code {} from {} answered SYSTEM_ERROR, its handler failed{}", request.code(),
                    remoteAddressText(), LogLimiter.suffix(suppressed), cause);
        }
    }

    private void write(InboundCommand inbound, boolean flowControlled, RemotingCommand response,
                       boolean fallbackOnEncodeError) {
        RemotingCommand request = inbound.command();
        response.setOpaque(request.opaque()).markResponse().setSerializeType(request.serializeType());
        if (!channel.isActive() || channel.eventLoop().isShuttingDown()) {
            counters.responseWriteFailures.incrementAndGet();
            response.releaseBody();
            release(inbound, flowControlled);
            return;
        }
        channel.writeAndFlush(response).addListener(written -> {
            if (written.isSuccess()) {
                release(inbound, flowControlled);
                counters.responses.incrementAndGet();
                return;
            }
            response.releaseBody();
            counters.responseWriteFailures.incrementAndGet();
            if (fallbackOnEncodeError && written.cause() instanceof EncoderException && channel.isActive()) {
                String remark = "response could not be encoded: " + written.cause().getMessage();
                logSystemError(request, remark, written.cause());
                write(inbound, flowControlled, RemotingCommand.response(ResponseCode.SYSTEM_ERROR, remark), false);
            } else {
                release(inbound, flowControlled);
            }
        });
    }

    private static Throwable unwrap(Throwable error) {
        Throwable cause = error;
        while ((cause instanceof CompletionException || cause instanceof ExecutionException)
                && cause.getCause() != null) {
            cause = cause.getCause();
        }
        return cause;
    }

    // ------------------------------------------------------------------------------------------ flow control

    /** Counts a request in; pauses reading at a high mark. I/O thread only. */
    private void acquire(int frameBytes) {
        int requests = inFlightRequests.incrementAndGet();
        long bytes = inFlightBytes.addAndGet(frameBytes);
        if (!readPaused && (requests >= limits.highRequests() || bytes >= limits.highBytes())) {
            readPaused = true;
            channel.config().setAutoRead(false);
            counters.readPauses.incrementAndGet();
            // A release on another thread may have missed the pause (it read readPaused before the volatile write
            // above); re-reading the counters after that write closes the gap.
            if (belowLowMarks()) {
                channel.eventLoop().execute(this::resumeIfBelowLowMarks);
            }
        }
    }

    /** Counts a request out; schedules a resume check on the I/O thread when reading is paused. Any thread. */
    private void release(InboundCommand inbound, boolean flowControlled) {
        if (!flowControlled) {
            return;
        }
        inFlightRequests.decrementAndGet();
        inFlightBytes.addAndGet(-inbound.frameBytes());
        if (readPaused && belowLowMarks() && !channel.eventLoop().isShuttingDown()) {
            channel.eventLoop().execute(this::resumeIfBelowLowMarks);
        }
    }

    private boolean belowLowMarks() {
        return inFlightRequests.get() <= limits.lowRequests() && inFlightBytes.get() <= limits.lowBytes();
    }

    private void resumeIfBelowLowMarks() {
        if (!readPaused || !belowLowMarks() || !channel.isActive()) {
            return;
        }
        readPaused = false;
        counters.readResumes.incrementAndGet();
        // Frames received before the pause are still in the decoder's buffer: feed it so they are decoded now
        // (which may pause reading again) instead of waiting for more bytes from the peer.
        channel.pipeline().fireChannelRead(Unpooled.EMPTY_BUFFER);
        channel.pipeline().fireChannelReadComplete();
        if (!readPaused) {
            channel.config().setAutoRead(true);
        }
    }

    // ---------------------------------------------------------------------------------- requests to the peer

    @Override
    public CompletableFuture<RemotingCommand> sendRequest(RemotingCommand request, long timeoutMs) {
        if (timeoutMs <= 0) {
            request.releaseBody();
            throw new IllegalArgumentException("timeoutMs must be positive, was " + timeoutMs);
        }
        int opaque = endpoint.nextOpaque();
        request.setOpaque(opaque);
        Outstanding future = new Outstanding(opaque, request.code(), timeoutMs);
        counters.outboundRequests.incrementAndGet();
        outstanding.put(opaque, future);
        scheduleSweep();
        channel.writeAndFlush(request).addListener(written -> {
            if (!written.isSuccess()) {
                request.releaseBody(); // the frame did not take it, or took it and has released it
            }
            if (!written.isSuccess() && outstanding.remove(opaque, future)) {
                future.completeExceptionally(new ConnectionClosedException("could not send request code "
                        + request.code() + " to " + remoteAddressText(), written.cause()));
            }
        });
        if (!channel.isActive() && outstanding.remove(opaque, future)) {
            future.completeExceptionally(new ConnectionClosedException("connection " + id() + " to "
                    + remoteAddressText() + " is closed"));
        }
        return future;
    }

    /**
     * Makes sure a sweep is due while requests are outstanding. The flag is set before a sweep is scheduled and
     * cleared by the sweep before it looks at the table again, so a request put in meanwhile is seen by one of them.
     */
    private void scheduleSweep() {
        if (sweepScheduled.get() || !sweepScheduled.compareAndSet(false, true)) {
            return;
        }
        try {
            channel.eventLoop().schedule(this::sweep, SWEEP_PERIOD_MS, TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException shutDown) {
            // The I/O thread is gone: the request's write fails too, and that failure completes it.
            sweepScheduled.set(false);
        }
    }

    /** On the I/O thread: fails every outstanding request past its deadline; again later while any are left. */
    private void sweep() {
        try {
            long nowNs = System.nanoTime();
            for (Outstanding request : outstanding.values()) {
                if (nowNs - request.deadlineNs >= 0 && outstanding.remove(request.opaque, request)) {
                    counters.outboundTimeouts.incrementAndGet();
                    request.completeExceptionally(new RemotingTimeoutException("no response from "
                            + remoteAddressText() + " to request code " + request.code + " opaque " + request.opaque
                            + " within " + request.timeoutMs + " ms"));
                }
            }
        } finally { // whatever a dependent stage threw, later deadlines are still checked
            sweepScheduled.set(false);
            if (!outstanding.isEmpty()) {
                scheduleSweep();
            }
        }
    }

    @Override
    public CompletableFuture<Void> sendOneway(RemotingCommand request) {
        request.setOpaque(endpoint.nextOpaque()).markOneway();
        counters.outboundRequests.incrementAndGet();
        CompletableFuture<Void> future = new CompletableFuture<>();
        channel.writeAndFlush(request).addListener(written -> {
            if (written.isSuccess()) {
                future.complete(null);
            } else {
                request.releaseBody();
                future.completeExceptionally(new ConnectionClosedException("could not send oneway request code "
                        + request.code() + " to " + remoteAddressText(), written.cause()));
            }
        });
        return future;
    }

    // -------------------------------------------------------------------------------------- identity and state

    @Override
    public SocketAddress remoteAddress() {
        return channel.remoteAddress();
    }

    @Override
    public String remoteAddressText() {
        String text = remoteAddressText;
        if (text == null) {
            SocketAddress address = channel.remoteAddress();
            if (address == null) {
                return "unconnected";
            }
            text = address instanceof InetSocketAddress inet && inet.getAddress() != null
                    ? inet.getAddress().getHostAddress() + ":" + inet.getPort()
                    : address.toString();
            remoteAddressText = text;
        }
        return text;
    }

    @Override
    public String id() {
        return channel.id().asShortText();
    }

    @Override
    public boolean isActive() {
        return channel.isActive();
    }

    @Override
    public void close() {
        channel.close();
    }

    @Override
    public int inFlightRequests() {
        return inFlightRequests.get();
    }

    @Override
    public boolean isReadPaused() {
        return readPaused;
    }

    @Override
    public Object attachment() {
        return attachment;
    }

    @Override
    public Executor ioExecutor() {
        return channel.eventLoop();
    }

    @Override
    public void attach(Object value) {
        attachment = value;
    }

    Channel channel() {
        return channel;
    }

    @Override
    public String toString() {
        return "Connection{" + id() + " " + remoteAddressText() + "}";
    }

    /** A request sent to the peer: the future of its response, with what its timeout needs. */
    private static final class Outstanding extends CompletableFuture<RemotingCommand> {
        final int opaque;
        final int code;
        final long timeoutMs;
        final long deadlineNs;

        Outstanding(int opaque, int code, long timeoutMs) {
            this.opaque = opaque;
            this.code = code;
            this.timeoutMs = timeoutMs;
            this.deadlineNs = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        }
    }
}
