/**
 * Pipelined dispatch (Apache's concurrent reput, redesigned): a reader cuts the CommitLog into record-aligned
 * chunks, parse workers decode them in parallel, an ordered ring restores CommitLog order and one writer appends
 * consume-queue slots. {@link io.sluice.store.dispatch.pipeline.PipelinedDispatcher} is the entry point; its
 * output equals the serial dispatcher's.
 */
package io.sluice.store.dispatch.pipeline;
