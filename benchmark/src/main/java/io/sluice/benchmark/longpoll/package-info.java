/** JMH benchmarks of long polling: a parked pull woken by an arrival and answered. */
package io.sluice.benchmark.longpoll;
