/**
 * Registration of the broker with its name servers: full REGISTER_BROKER at start and periodically, incremental
 * registrations of new topics, UNREGISTER_BROKER at shutdown.
 */
package io.sluice.broker.registry;
