/**
 * Name-server request handlers, one class per request family. Each handler reads the request header and body,
 * calls the {@link io.sluice.namesrv.route.RouteTable} or {@link io.sluice.namesrv.route.KvConfigTable}, and
 * builds the response; a missing or malformed header field becomes a SYSTEM_ERROR response naming the field
 * (the transport's rule for {@link io.sluice.remoting.protocol.MalformedHeaderException}).
 */
package io.sluice.namesrv.handler;
