package io.sluice.remoting.protocol.body;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Defensive, order-preserving, unmodifiable copies for record components. A null collection becomes empty (JSON
 * bodies omit empty or null members freely); a null element, key or value is rejected with an exception naming the
 * field, because every consumer of these bodies would otherwise trip over it later.
 */
final class Copies {

    private Copies() {
    }

    static <T> List<T> list(Collection<T> source, String field) {
        if (source == null || source.isEmpty()) {
            return List.of();
        }
        List<T> copy = new ArrayList<>(source.size());
        for (T element : source) {
            copy.add(element(element, field));
        }
        return Collections.unmodifiableList(copy);
    }

    static <T> Set<T> set(Collection<T> source, String field) {
        if (source == null || source.isEmpty()) {
            return Set.of();
        }
        Set<T> copy = new LinkedHashSet<>(source.size() * 2);
        for (T element : source) {
            copy.add(element(element, field));
        }
        return Collections.unmodifiableSet(copy);
    }

    static <K, V> Map<K, V> map(Map<K, V> source, String field) {
        if (source == null || source.isEmpty()) {
            return Map.of();
        }
        Map<K, V> copy = new LinkedHashMap<>(source.size() * 2);
        for (Map.Entry<K, V> entry : source.entrySet()) {
            if (entry.getKey() == null) {
                throw new IllegalArgumentException(field + " has a null key");
            }
            if (entry.getValue() == null) {
                throw new IllegalArgumentException(field + " has a null value for key " + entry.getKey());
            }
            copy.put(entry.getKey(), entry.getValue());
        }
        return Collections.unmodifiableMap(copy);
    }

    static <T> T required(T value, String field) {
        if (value == null) {
            throw new IllegalArgumentException(field + " is missing");
        }
        return value;
    }

    private static <T> T element(T element, String field) {
        if (element == null) {
            throw new IllegalArgumentException(field + " has a null element");
        }
        return element;
    }
}
