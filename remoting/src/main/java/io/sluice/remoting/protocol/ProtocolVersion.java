package io.sluice.remoting.protocol;

/**
 * Values of the {@code version} field: ordinals of Apache's {@code MQVersion.Version}
 * (docs/wire-protocol.md#language-and-version). Constants only.
 */
public final class ProtocolVersion {
    /** Apache RocketMQ 4.9.4: first version whose route queries get standard JSON. */
    public static final int V4_9_4 = 401;
    /** Apache RocketMQ 5.0.0. */
    public static final int V5_0_0 = 413;
    /** Apache RocketMQ 5.1.4, the version OMB's driver pins. */
    public static final int V5_1_4 = 441;
    /** Apache RocketMQ 5.3.1. */
    public static final int V5_3_1 = 475;
    /** Apache RocketMQ 5.3.3. */
    public static final int V5_3_3 = 479;
    /** The version Sluice stamps on the commands it creates (the spec recommends 479). */
    public static final int CURRENT = V5_3_3;

    private ProtocolVersion() {
    }
}
