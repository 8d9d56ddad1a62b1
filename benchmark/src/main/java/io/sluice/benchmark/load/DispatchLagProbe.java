package io.sluice.benchmark.load;

import io.sluice.remoting.protocol.RemotingCommand;
import io.sluice.remoting.protocol.RequestCode;
import io.sluice.remoting.protocol.ResponseCode;
import io.sluice.remoting.protocol.body.BodyCodec;
import io.sluice.remoting.protocol.body.KVTable;
import io.sluice.remoting.transport.ClientSettings;
import io.sluice.remoting.transport.RemotingClient;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Reads a RocketMQ-protocol broker's dispatch lag with GET_BROKER_RUNTIME_INFO (28): {@code dispatchBehindBytes}
 * (Sluice's and Apache's brokers) and {@code dispatchBehindMs} (Sluice's only). Thread-safe; owns one remoting
 * client, closed by {@link #close()}.
 */
final class DispatchLagProbe implements DispatchLagSampler.Source, AutoCloseable {

    static final String BEHIND_BYTES = "dispatchBehindBytes";
    static final String BEHIND_MS = "dispatchBehindMs";

    private final String brokerAddr;
    private final long timeoutMs;
    private final RemotingClient client = new RemotingClient(ClientSettings.defaults());

    /** @param timeoutMs how long one request may take, connecting included */
    DispatchLagProbe(String brokerAddr, long timeoutMs) {
        if (timeoutMs <= 0) {
            throw new IllegalArgumentException("timeoutMs must be positive, was " + timeoutMs);
        }
        this.brokerAddr = brokerAddr;
        this.timeoutMs = timeoutMs;
    }

    /**
     * Asks the broker once.
     *
     * @throws InterruptedException  if interrupted while waiting for the answer
     * @throws IllegalStateException naming the broker and the cause when there is no usable answer (failure
     *                               response, timeout, connection error, malformed body or values)
     */
    @Override
    public Reading read() throws InterruptedException {
        RemotingCommand answer;
        try {
            answer = client.invoke(brokerAddr, RemotingCommand.request(RequestCode.GET_BROKER_RUNTIME_INFO),
                    timeoutMs).get(timeoutMs, TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            throw new IllegalStateException("GET_BROKER_RUNTIME_INFO to " + brokerAddr + " failed: " + e.getCause(),
                    e.getCause());
        } catch (TimeoutException e) {
            throw new IllegalStateException("GET_BROKER_RUNTIME_INFO to " + brokerAddr + " got no answer within "
                    + timeoutMs + " ms", e);
        }
        if (answer.code() != ResponseCode.SUCCESS) {
            throw new IllegalStateException("GET_BROKER_RUNTIME_INFO to " + brokerAddr + " answered code "
                    + answer.code() + " " + answer.remark());
        }
        try {
            return parse(BodyCodec.decode(answer.body(), KVTable.class).table());
        } catch (RuntimeException e) {
            throw new IllegalStateException("GET_BROKER_RUNTIME_INFO from " + brokerAddr + ": " + e.getMessage(), e);
        }
    }

    /**
     * The lag in a runtime-info table.
     *
     * @throws IllegalArgumentException naming the key and value when {@code dispatchBehindBytes} is missing, or
     *                                  either key is not a non-negative integer
     */
    static Reading parse(Map<String, String> table) {
        String bytes = table.get(BEHIND_BYTES);
        if (bytes == null) {
            throw new IllegalArgumentException("the runtime info has no " + BEHIND_BYTES);
        }
        String ms = table.get(BEHIND_MS);
        return new Reading(nonNegative(BEHIND_BYTES, bytes),
                ms == null ? OptionalLong.empty() : OptionalLong.of(nonNegative(BEHIND_MS, ms)));
    }

    private static long nonNegative(String key, String text) {
        long value;
        try {
            value = Long.parseLong(text.strip());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(key + " is not an integer: '" + text + "'", e);
        }
        if (value < 0) {
            throw new IllegalArgumentException(key + " is negative: " + value);
        }
        return value;
    }

    @Override
    public void close() {
        client.close();
    }

    /**
     * One answer.
     *
     * @param behindBytes bytes between the broker's written (confirmed) and dispatched positions
     * @param behindMs    the same distance in milliseconds, when the broker reports it
     */
    record Reading(long behindBytes, OptionalLong behindMs) {
    }
}
