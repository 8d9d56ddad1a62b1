package io.sluice.client;

/** What a {@link ConcurrentListener} did with the messages it was given. */
public enum ConsumeStatus {
    /** Consumed; the offset may move past them. */
    SUCCESS,
    /** Not consumed; redeliver later through the group's retry topic (CONSUMER_SEND_MSG_BACK). */
    RECONSUME_LATER
}
