/**
 * The RocketMQ remoting protocol: {@link io.sluice.remoting.protocol.RemotingCommand}, request and response codes,
 * and the frame codec for both header serializations (JSON and the ROCKETMQ binary layout). Knows nothing about
 * topics or messages; the layouts are drawn in {@link io.sluice.remoting.protocol.FrameDescriptor} and
 * {@link io.sluice.remoting.protocol.BinaryHeaderDescriptor}.
 */
package io.sluice.remoting.protocol;
