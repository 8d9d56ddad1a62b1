/** JMH benchmarks of dispatch: CommitLog records into consume-queue slots. */
package io.sluice.benchmark.dispatch;
