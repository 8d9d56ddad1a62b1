/** JMH benchmarks of transactional messages: the broker's cost of a half message and its commit. */
package io.sluice.benchmark.transaction;
