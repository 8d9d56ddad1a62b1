package io.sluice.client;

/** What an {@link OrderlyListener} did with the messages it was given. */
public enum OrderlyStatus {
    /** Consumed; the queue moves on. */
    SUCCESS,
    /** Not consumed; the queue stops and the same messages are offered again after a pause. */
    SUSPEND
}
