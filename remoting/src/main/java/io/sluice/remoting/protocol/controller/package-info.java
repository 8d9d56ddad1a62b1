/**
 * The controller-mode wire bodies that brokers and the failover controller exchange (docs/replication.md), kept
 * here so that the broker need not depend on the name server that hosts the controller.
 */
package io.sluice.remoting.protocol.controller;
