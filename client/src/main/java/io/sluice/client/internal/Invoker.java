package io.sluice.client.internal;

import io.sluice.remoting.protocol.RemotingCommand;
import java.util.concurrent.CompletableFuture;

/**
 * Sends requests. The future of {@link #invoke} carries the response whatever its code and fails only for
 * transport problems (connect, timeout, closed connection). A body the request holds by reference
 * ({@link RemotingCommand#setBody(io.netty.buffer.ByteBuf)}) becomes the invoker's, which releases it once written or
 * given up; if the invoker throws instead, the caller releases it ({@link RemotingCommand#releaseBody()} is
 * idempotent). Implementations must be thread-safe.
 */
public interface Invoker {

    /** Sends {@code request} to {@code address} ({@code host:port}) within {@code timeoutMs}. */
    CompletableFuture<RemotingCommand> invoke(String address, RemotingCommand request, long timeoutMs);

    /** Sends {@code request} marked oneway; completes when it is written. */
    CompletableFuture<Void> invokeOneway(String address, RemotingCommand request);
}
