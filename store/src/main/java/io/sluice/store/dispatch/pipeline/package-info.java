/**
 * Pipelined dispatch (Apache's concurrent reput, redesigned): a reader cuts the CommitLog into record-aligned
 * chunks, parse workers decode them in parallel, an ordered ring restores CommitLog order and one writer appends
 * consume-queue slots. {@link io.sluice.store.dispatch.pipeline.PipelinedDispatcher} is the entry point; its
 * output equals the serial dispatcher's.
 *
 * <p><b>API</b> (the public classes): {@code PipelinedDispatcher} for the store façade, {@code PipelineSettings}
 * for the broker's configuration. Everything else is package-private.
 */
package io.sluice.store.dispatch.pipeline;
