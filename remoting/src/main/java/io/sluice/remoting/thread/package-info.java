/**
 * Thread contracts shared by the name server, the controller and the broker.
 */
package io.sluice.remoting.thread;
