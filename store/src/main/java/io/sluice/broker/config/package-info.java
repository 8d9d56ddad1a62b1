/**
 * Broker configuration: the key table ({@link io.sluice.broker.config.BrokerConfigKeys}), the immutable
 * {@link io.sluice.broker.config.BrokerSettings} it produces, and the one loader that reads a
 * {@code broker.conf} file ({@link io.sluice.broker.config.BrokerConfigLoader}).
 */
package io.sluice.broker.config;
