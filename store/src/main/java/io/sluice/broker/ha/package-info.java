/**
 * Master/slave replication (RocketMQ's model and key names): a master ({@code brokerId=0}, ASYNC_MASTER or
 * SYNC_MASTER) serves its slaves on {@code haListenPort} ({@link io.sluice.broker.ha.HaServer}, one
 * {@link io.sluice.broker.ha.SlaveLink} per slave); a slave ({@code brokerId>0}, SLAVE) copies the master's
 * CommitLog byte for byte, at the same positions ({@link io.sluice.broker.ha.ReplicaClient}), and its dispatcher
 * builds the consume queues as for any append; it copies topics, groups and consumer offsets through admin calls
 * ({@link io.sluice.broker.ha.MasterMetadataSync}, {@link io.sluice.broker.ha.MetadataExport}). A SYNC_MASTER's
 * sends wait for a slave's acknowledgement without holding a thread ({@link io.sluice.broker.ha.SyncReplication}).
 * The wire layout of the HA channel is {@link io.sluice.broker.ha.HaFrameDescriptor}. The store engine only
 * offers a raw read and a raw append ({@code MessageStore.readReplicable}, {@code appendReplicated}); the channel
 * is plain blocking NIO here, in the broker.
 *
 * <p>Controller mode ({@code enableControllerMode}, run by {@code io.sluice.broker.FailoverBroker}): the broker
 * heartbeats the controller leader ({@link io.sluice.broker.ha.ControllerClient}), which answers its role; a
 * master reports its in-sync set ({@link io.sluice.broker.ha.SyncStateTracker}). Each broker keeps the history of
 * master epochs over its CommitLog ({@link io.sluice.broker.ha.EpochFile}, layout
 * {@link io.sluice.broker.ha.EpochFileDescriptor}), from which a replica that follows a new master learns how much
 * of its log tail to drop.
 */
package io.sluice.broker.ha;
