/**
 * Timer messages measured: JMH figures for indexing and delivering timers ({@link
 * io.sluice.benchmark.timer.TimerServiceBenchmark}), and two harnesses with a {@code main}: delivery lateness under
 * a steady due rate ({@link io.sluice.benchmark.timer.TimerLateness}) and the heap with millions of timers pending
 * ({@link io.sluice.benchmark.timer.TimerHeap}).
 */
package io.sluice.benchmark.timer;
