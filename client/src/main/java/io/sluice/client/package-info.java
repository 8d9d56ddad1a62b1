/**
 * The Sluice Java client, wire-compatible with Apache RocketMQ brokers and name servers.
 *
 * <ul>
 *   <li>{@link io.sluice.client.Producer} ({@link io.sluice.client.ProducerSettings}): sync, async and oneway sends,
 *       explicit batches, queue selectors, retries on another broker, auto-batching with bounded memory.</li>
 *   <li>{@link io.sluice.client.LitePullConsumer} ({@link io.sluice.client.LitePullSettings}): assign or subscribe,
 *       poll, seek, commit.</li>
 *   <li>{@link io.sluice.client.PushConsumer} ({@link io.sluice.client.PushSettings}): concurrent and orderly
 *       listeners, group rebalance, offset commits, retries through the broker, flow control.</li>
 *   <li>{@link io.sluice.client.Admin}: topics (with their queue type), cluster and route information, topic stats,
 *       consumer progress.</li>
 * </ul>
 *
 * <p>Bad arguments and settings fail with {@link java.lang.IllegalArgumentException} naming the value, before
 * anything is sent; broker error codes surface as {@link io.sluice.client.BrokerErrorException}; other failures as
 * {@link io.sluice.client.ClientException}. Everything in {@code io.sluice.client.internal} is not API.
 */
package io.sluice.client;
