package io.sluice.remoting.transport;

import io.sluice.remoting.protocol.RemotingCommand;

/** A decoded command and the size of the frame it came in, for the in-flight byte accounting. */
record InboundCommand(RemotingCommand command, int frameBytes) {
}
