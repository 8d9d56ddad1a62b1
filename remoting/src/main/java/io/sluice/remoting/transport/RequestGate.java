package io.sluice.remoting.transport;

import io.sluice.remoting.protocol.RemotingCommand;

/**
 * A check every request passes before its handler is looked up, e.g. authentication and authorization. Called on
 * the connection's I/O thread, in arrival order, so it must be quick and must not block; implementations must be
 * thread-safe (one gate serves every I/O thread). A refused request never reaches a handler: a two-way request is
 * answered with the verdict's code and remark, a oneway request is dropped. Responses do not pass the gate.
 */
@FunctionalInterface
public interface RequestGate {

    /** The gate that lets everything through. */
    RequestGate OPEN = (connection, request) -> GateVerdict.PASS;

    /**
     * Decides whether {@code request} from {@code connection} may be handled.
     *
     * @return {@link GateVerdict#PASS} or a refusal; never null
     */
    GateVerdict check(ConnectionContext connection, RemotingCommand request);
}
