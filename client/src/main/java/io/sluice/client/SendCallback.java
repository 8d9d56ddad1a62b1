package io.sluice.client;

/**
 * Told the outcome of an asynchronous send, exactly once. Runs on a client I/O thread: it must be quick and must
 * not block (hand slow work to an executor).
 */
public interface SendCallback {

    /** The message was stored. */
    void onSuccess(SendResult result);

    /** The send failed; for an auto-batched message, with its batch's error. */
    void onException(Throwable error);
}
