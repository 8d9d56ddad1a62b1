/** JMH benchmarks and the end-to-end load harness. */
package io.sluice.benchmark;
