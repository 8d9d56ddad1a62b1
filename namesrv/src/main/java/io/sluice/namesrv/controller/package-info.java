/**
 * The failover controller (Apache RocketMQ's controller mode, its key names): a Raft group of one or more controllers
 * on Apache Ratis keeps, per broker group ({@code brokerName}), its replicas, the master and its epoch, and the in-sync
 * set ({@link io.sluice.namesrv.controller.ReplicaTable}). Every change is a command in the Raft log ({@link
 * io.sluice.namesrv.controller.ControllerLogDescriptor}), applied in log order by {@link
 * io.sluice.namesrv.controller.ControllerStateMachine}; snapshots follow {@link
 * io.sluice.namesrv.controller.ControllerSnapshotDescriptor}. Broker heartbeats are not logged: the leader keeps them
 * in memory ({@link io.sluice.namesrv.controller.BrokerLeases}) and its {@link
 * io.sluice.namesrv.controller.ElectionAgent} elects an in-sync replica when a master's heartbeat is overdue. Brokers
 * talk to it over the remoting protocol ({@link io.sluice.remoting.protocol.controller.ControllerWireDescriptor}), on
 * the name server's port ({@code enableControllerInNamesrv}) or a standalone controller's.
 */
package io.sluice.namesrv.controller;
