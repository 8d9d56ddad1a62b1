/**
 * The name server's state: which brokers are alive, which cluster they belong to, and which topics' queues they
 * host ({@link io.sluice.namesrv.route.RouteTable}), plus the key-value configuration
 * ({@link io.sluice.namesrv.route.KvConfigTable}). No networking here: the handlers translate requests into calls.
 */
package io.sluice.namesrv.route;
