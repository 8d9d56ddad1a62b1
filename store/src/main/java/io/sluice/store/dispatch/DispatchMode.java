package io.sluice.store.dispatch;

/**
 * Which dispatcher a store runs after recovery ({@link DispatchSettings#mode()}).
 *
 * <p>Immutable; thread-safe.
 */
public enum DispatchMode {
    /** {@link SerialDispatcher}: one thread parses and indexes every record in order. */
    SERIAL,
    /**
     * {@link io.sluice.store.dispatch.pipeline.PipelinedDispatcher}: record-aligned chunks parsed in parallel,
     * indexed in order by one writer; same consume queues as SERIAL.
     */
    PIPELINED
}
