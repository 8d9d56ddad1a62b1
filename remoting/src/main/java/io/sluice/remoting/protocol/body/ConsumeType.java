package io.sluice.remoting.protocol.body;

/** How a consumer group fetches messages. Written by name. */
public enum ConsumeType {
    /** Pull and lite-pull consumers. */
    CONSUME_ACTIVELY,
    /** Push consumers. */
    CONSUME_PASSIVELY,
    /** POP consumers. */
    CONSUME_POP
}
