/**
 * Netty transport for the RocketMQ remoting protocol: {@link io.sluice.remoting.transport.RemotingServer} and
 * {@link io.sluice.remoting.transport.RemotingClient}, per-code {@link io.sluice.remoting.transport.RequestHandler}s
 * run on ordered per-connection lanes (or on the I/O thread itself), in-flight water marks, server-to-client
 * requests and counters; TLS ({@link io.sluice.remoting.transport.ServerTls},
 * {@link io.sluice.remoting.transport.ClientTls}) and one {@link io.sluice.remoting.transport.RequestGate} that
 * every request passes before its handler (the broker's access control).
 * Knows nothing about topics or messages.
 */
package io.sluice.remoting.transport;
