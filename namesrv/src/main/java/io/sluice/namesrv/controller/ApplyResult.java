package io.sluice.namesrv.controller;

import io.sluice.remoting.protocol.controller.ControllerWireDescriptor;

/**
 * The outcome of applying one {@link ControllerCommand}: success with a value (the broker id of a registration,
 * the new epoch of an election or of an in-sync set), or a refusal with the Apache controller response code and
 * a readable reason.
 *
 * <p>Immutable; thread-safe.
 *
 * @param code   0 (SUCCESS) or a CONTROLLER_* response code of {@link ControllerWireDescriptor}
 * @param value  the result value on success, else -1
 * @param remark why it was refused; empty on success
 */
record ApplyResult(int code, long value, String remark) {

    static ApplyResult ok(long value) {
        return new ApplyResult(0, value, "");
    }

    static ApplyResult refused(int code, String remark) {
        return new ApplyResult(code, -1, remark);
    }

    boolean isOk() {
        return code == 0;
    }
}
