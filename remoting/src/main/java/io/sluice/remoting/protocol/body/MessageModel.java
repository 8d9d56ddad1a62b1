package io.sluice.remoting.protocol.body;

/** How a consumer group shares messages among its members. Written by name. */
public enum MessageModel {
    /** Every member receives every message. */
    BROADCASTING,
    /** The queues are divided among the members. */
    CLUSTERING
}
