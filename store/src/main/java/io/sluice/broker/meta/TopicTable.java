package io.sluice.broker.meta;

import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * A consistent snapshot of the topic table: every topic together with the data version that describes exactly
 * this set (what a broker registers with the name server).
 *
 * <p>Immutable; thread-safe.
 *
 * @param dataVersion the table's version at the time of the snapshot
 * @param topics      topic name to config, sorted by name, unmodifiable
 */
public record TopicTable(TableVersion dataVersion, Map<String, TopicConfig> topics) {

    /** Copies {@code topics} into an unmodifiable map sorted by name. */
    public TopicTable {
        if (dataVersion == null) {
            throw new IllegalArgumentException("dataVersion must not be null");
        }
        topics = Collections.unmodifiableMap(new TreeMap<>(topics));
    }
}
