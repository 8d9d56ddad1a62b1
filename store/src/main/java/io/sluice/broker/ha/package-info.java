/**
 * Master/slave replication (RocketMQ's model and key names): a master ({@code brokerId=0}, ASYNC_MASTER or
 * SYNC_MASTER) serves its slaves on {@code haListenPort} ({@link io.sluice.broker.ha.HaServer}, one
 * {@link io.sluice.broker.ha.SlaveLink} per slave); a slave ({@code brokerId>0}, SLAVE) copies the master's
 * CommitLog byte for byte, at the same positions ({@link io.sluice.broker.ha.ReplicaClient}), and its dispatcher
 * builds the consume queues as for any append; it copies topics, groups and consumer offsets through admin calls
 * ({@link io.sluice.broker.ha.MasterMetadataSync}, {@link io.sluice.broker.ha.MetadataExport}). A SYNC_MASTER's
 * sends wait for a slave's acknowledgement without holding a thread ({@link io.sluice.broker.ha.SyncReplication}).
 * The wire layout of the HA channel is {@link io.sluice.broker.ha.HaFrameDescriptor}; a slave signs its hello with
 * its inner credentials, and a master with {@code authenticationEnabled} refuses one that is not signed by a user
 * allowed to replicate ({@link io.sluice.broker.ha.HaAuthentication}). The store engine only
 * offers a raw read and a raw append ({@code MessageStore.readReplicable}, {@code appendReplicated}); the channel
 * is blocking NIO here, in the broker, plain or under TLS as the broker's TLS settings say
 * ({@link io.sluice.broker.ha.HaTls}, over an SSLEngine in {@link io.sluice.broker.ha.TlsChannel}).
 *
 * <p>Controller mode ({@code enableControllerMode}, run by {@code io.sluice.broker.FailoverBroker}): the broker
 * heartbeats the controller leader ({@link io.sluice.broker.ha.ControllerClient}), which answers its role; a
 * master reports its in-sync set ({@link io.sluice.broker.ha.SyncStateTracker}). Each broker keeps the history of
 * master epochs over its CommitLog ({@link io.sluice.broker.ha.EpochFile}, layout
 * {@link io.sluice.broker.ha.EpochFileDescriptor}); a slave's HA hello carries it, and the master's answer says
 * how much of the slave's log tail to drop before it copies. What controller mode tells the HA channel (epochs,
 * in-sync slaves, the handshake's outcome) comes through {@link io.sluice.broker.ha.ReplicaGroupView}; a
 * SYNC_MASTER's sends then wait for every in-sync slave.
 */
package io.sluice.broker.ha;
