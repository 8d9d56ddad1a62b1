package io.sluice.remoting.transport;

import java.util.Objects;

/**
 * What a {@link RequestGate} decided: pass, or refuse with a response code and a remark for the client.
 * Immutable, thread-safe.
 */
public final class GateVerdict {

    /** The request may be handled. */
    public static final GateVerdict PASS = new GateVerdict(true, 0, "");

    private final boolean passed;
    private final int code;
    private final String remark;

    private GateVerdict(boolean passed, int code, String remark) {
        this.passed = passed;
        this.code = code;
        this.remark = remark;
    }

    /** A refusal answered with response {@code code} and {@code remark}. */
    public static GateVerdict refuse(int code, String remark) {
        return new GateVerdict(false, code, Objects.requireNonNull(remark, "remark"));
    }

    public boolean passed() {
        return passed;
    }

    /** The response code of a refusal. */
    public int code() {
        return code;
    }

    /** The remark of a refusal. */
    public String remark() {
        return remark;
    }

    @Override
    public String toString() {
        return passed ? "PASS" : "REFUSE(" + code + ", " + remark + ")";
    }
}
