/**
 * Crash safety of the store: the checkpoint (the dispatched position whose consume-queue slots are durable), the
 * abort marker (present while a store runs), the lock file (one store per directory) and the start-up recovery
 * that brings the CommitLog and the consume queues back into agreement.
 */
package io.sluice.store.recovery;
