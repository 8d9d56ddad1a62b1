/**
 * Request handlers of the broker, one class per request family. Each exposes one method per request code with the
 * shape of {@link io.sluice.remoting.transport.RequestHandler}; the composition root ({@link io.sluice.broker.Broker})
 * registers them on the server and chooses where they run.
 */
package io.sluice.broker.handler;
