/**
 * The name server: broker registration and topic routes, wire-compatible with Apache RocketMQ clients, brokers and
 * admin tools. {@link io.sluice.namesrv.NameServer} is the composition root, configured by
 * {@link io.sluice.namesrv.NamesrvSettings}; {@link io.sluice.namesrv.NamesrvMain} is the command-line entry point.
 */
package io.sluice.namesrv;
