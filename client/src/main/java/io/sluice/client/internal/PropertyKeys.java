package io.sluice.client.internal;

import java.util.Set;

/**
 * Names of the message properties the client reads or writes (docs/wire-protocol.md#property-keys). Constants only.
 */
public final class PropertyKeys {
    /** Client-generated unique id of a message or of a batch. */
    public static final String UNIQ_KEY = "UNIQ_KEY";
    /** The message's tag. */
    public static final String TAGS = "TAGS";
    /** User keys separated by one space. */
    public static final String KEYS = "KEYS";
    /** {@code "false"} when the producer does not wait for the store; absent means true. */
    public static final String WAIT = "WAIT";
    /** Delay level. */
    public static final String DELAY = "DELAY";
    /** Number of messages in an inner-batch record (broker-set). */
    public static final String INNER_NUM = "INNER_NUM";
    /** Base queue offset of an inner-batch record (broker-set). */
    public static final String INNER_BASE = "INNER_BASE";
    /** Original topic of a retried message. */
    public static final String RETRY_TOPIC = "RETRY_TOPIC";
    /** Offset id of the first delivery of a retried message. */
    public static final String ORIGIN_MESSAGE_ID = "ORIGIN_MESSAGE_ID";
    /** Queue min offset, added by the consumer from the pull response. */
    public static final String MIN_OFFSET = "MIN_OFFSET";
    /** Queue max offset, added by the consumer from the pull response. */
    public static final String MAX_OFFSET = "MAX_OFFSET";
    /** Producer group of transactional messages. */
    public static final String PGROUP = "PGROUP";
    /** Times reconsumed, on a message the client re-publishes itself. */
    public static final String RECONSUME_TIME = "RECONSUME_TIME";
    /** Maximum reconsume times of a retried message. */
    public static final String MAX_RECONSUME_TIMES = "MAX_RECONSUME_TIMES";
    /** Transactional half message marker. */
    public static final String TRAN_MSG = "TRAN_MSG";
    /** Broker cluster name (broker-set). */
    public static final String CLUSTER = "CLUSTER";

    /** Names a user may not set: the client or the broker owns them. */
    public static final Set<String> RESERVED = Set.of(UNIQ_KEY, TAGS, KEYS, WAIT, DELAY, INNER_NUM, INNER_BASE,
            RETRY_TOPIC, ORIGIN_MESSAGE_ID, MIN_OFFSET, MAX_OFFSET, PGROUP, RECONSUME_TIME, MAX_RECONSUME_TIMES,
            TRAN_MSG, CLUSTER, "REAL_TOPIC", "REAL_QID", "MSG_REGION", "TRACE_ON", "CONSUME_START_TIME",
            "TIMER_DELIVER_MS", "TIMER_DELAY_SEC", "TIMER_DELAY_MS");

    private PropertyKeys() {
    }
}
