/** Netty transport and the RocketMQ-compatible remoting protocol. */
package io.sluice.remoting;
