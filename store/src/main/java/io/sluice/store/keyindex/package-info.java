/**
 * The key index: message keys ({@code KEYS}, space separated) and unique keys ({@code UNIQ_KEY}) of every stored
 * record, mapped to the record's CommitLog position and store time, so that QUERY_MESSAGE finds a message anywhere
 * within retention without scanning. Hash-slot files with chained entries, one file per span of the log
 * ({@code KeyIndexDescriptor}); {@link io.sluice.store.keyindex.KeyIndex} owns them and the one thread that writes
 * them, which follows the dispatcher's position, off the dispatch path.
 *
 * <p><b>API</b> (the public classes): {@code KeyIndex} for the store façade, {@code KeyIndexSettings} for the
 * broker's configuration, {@code KeyIndexStats} for its metrics.
 */
package io.sluice.store.keyindex;
