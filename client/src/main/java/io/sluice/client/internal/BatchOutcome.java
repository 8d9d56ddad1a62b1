package io.sluice.client.internal;

import io.sluice.client.SendResult;
import java.util.List;

/** Receives the outcome of a {@link SendJob} exactly once. Called on a client I/O thread or the sending thread. */
public interface BatchOutcome {

    /** Every message was stored; {@code results} holds one result per message, in job order. */
    void succeeded(List<SendResult> results);

    /** The job failed; every message of it failed with {@code error}. */
    void failed(Throwable error);
}
