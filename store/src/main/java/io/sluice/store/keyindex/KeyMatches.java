package io.sluice.store.keyindex;

import java.util.LinkedHashSet;
import java.util.Set;
import java.util.function.LongPredicate;

/**
 * Positions found for one query: each candidate is checked against its record (hashes collide), duplicates (a
 * record indexed twice after a crash) are counted once, and the collection stops at the query's maximum.
 *
 * <p>Not thread-safe: one query's thread.
 */
final class KeyMatches {

    private final LongPredicate recordMatches;
    private final int maxMatches;
    private final Set<Long> positions = new LinkedHashSet<>();
    private int candidates;
    private int damagedChains;

    /**
     * @param recordMatches whether the record at a position really carries the key (reads the CommitLog)
     * @param maxMatches    how many matches are enough
     */
    KeyMatches(LongPredicate recordMatches, int maxMatches) {
        this.recordMatches = recordMatches;
        this.maxMatches = maxMatches;
    }

    boolean isFull() {
        return positions.size() >= maxMatches;
    }

    void offer(long position) {
        candidates++;
        if (!positions.contains(position) && recordMatches.test(position)) {
            positions.add(position);
        }
    }

    void onDamagedChain() {
        damagedChains++;
    }

    Set<Long> positions() {
        return positions;
    }

    int candidates() {
        return candidates;
    }

    int damagedChains() {
        return damagedChains;
    }
}
