/**
 * An OpenMessaging Benchmark driver for the Sluice client: {@link io.sluice.benchmark.omb.SluiceBenchmarkDriver}.
 * Built only with the {@code omb-driver} Maven profile, because OMB's driver API is not on Maven Central.
 */
package io.sluice.benchmark.omb;
