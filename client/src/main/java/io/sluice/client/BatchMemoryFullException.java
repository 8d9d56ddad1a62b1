package io.sluice.client;

/**
 * An auto-batched send could not reserve memory: {@code totalBatchMaxBytes} was held by open and in-flight
 * batches, and the producer fails fast ({@link ProducerSettings#failWhenBatchMemoryFull()}) or the send timeout
 * passed while waiting.
 */
public class BatchMemoryFullException extends ClientException {

    public BatchMemoryFullException(String message) {
        super(message);
    }
}
