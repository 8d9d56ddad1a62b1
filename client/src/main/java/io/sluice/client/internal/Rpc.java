package io.sluice.client.internal;

import io.sluice.client.BrokerErrorException;
import io.sluice.client.ClientException;
import io.sluice.remoting.protocol.RemotingCommand;
import io.sluice.remoting.protocol.ResponseCode;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Request helpers over an {@link Invoker}: transport failures become {@link ClientException}s naming the address
 * and request code, unexpected response codes become {@link BrokerErrorException}s. Stateless; thread-safe.
 */
public final class Rpc {

    private Rpc() {
    }

    /**
     * Sends {@code request}; the future fails only with a {@link ClientException} for transport problems (also when
     * the invoker throws instead of returning a failed future).
     */
    public static CompletableFuture<RemotingCommand> call(Invoker invoker, String address, RemotingCommand request,
                                                          long timeoutMs) {
        int code = request.code();
        CompletableFuture<RemotingCommand> result = new CompletableFuture<>();
        CompletableFuture<RemotingCommand> sent;
        try {
            sent = invoker.invoke(address, request, timeoutMs);
        } catch (RuntimeException e) {
            sent = CompletableFuture.failedFuture(e);
        }
        sent.whenComplete((response, error) -> {
            if (error != null) {
                result.completeExceptionally(new ClientException("request code " + code + " to " + address
                        + " failed: " + unwrap(error).getMessage(), unwrap(error)));
            } else {
                result.complete(response);
            }
        });
        return result;
    }

    /** Like {@link #call} but a response code other than SUCCESS fails with a {@link BrokerErrorException}. */
    public static CompletableFuture<RemotingCommand> callOk(Invoker invoker, String address, RemotingCommand request,
                                                            long timeoutMs) {
        return call(invoker, address, request, timeoutMs).thenApply(response -> requireOk(response, address));
    }

    /** Returns {@code response} if its code is SUCCESS. @throws BrokerErrorException otherwise */
    public static RemotingCommand requireOk(RemotingCommand response, String address) {
        if (response.code() != ResponseCode.SUCCESS) {
            throw new BrokerErrorException(response.code(), response.remark(), address);
        }
        return response;
    }

    /**
     * Waits for {@code future} up to {@code timeoutMs}, rethrowing its failure unwrapped: a {@link ClientException}
     * or runtime exception as itself, anything else wrapped in a {@link ClientException}.
     */
    public static <T> T await(CompletableFuture<T> future, long timeoutMs, String what) {
        try {
            return future.get(timeoutMs, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ClientException("interrupted while waiting for " + what, e);
        } catch (ExecutionException e) {
            throw rethrow(e.getCause(), what);
        } catch (TimeoutException e) {
            throw new ClientException(what + " did not complete within " + timeoutMs + " ms", e);
        }
    }

    /** {@code error} as a runtime exception to throw: itself if it is one, else wrapped. */
    public static RuntimeException rethrow(Throwable error, String what) {
        Throwable cause = unwrap(error);
        if (cause instanceof RuntimeException runtime) {
            return runtime;
        }
        if (cause instanceof Error fatal) {
            throw fatal;
        }
        return new ClientException(what + " failed", cause);
    }

    /** The cause of a {@link CompletionException}, else {@code error}. */
    public static Throwable unwrap(Throwable error) {
        Throwable cause = error;
        while ((cause instanceof CompletionException || cause instanceof ExecutionException)
                && cause.getCause() != null) {
            cause = cause.getCause();
        }
        return cause;
    }
}
