/** The storage engine: one shared CommitLog, consume queues, dispatch, recovery, retention. No transport. */
package io.sluice.store;
