package io.sluice.client.internal;

import io.sluice.format.MessageProperties;
import java.util.AbstractMap;
import java.util.Collections;
import java.util.Map;
import java.util.Set;

/**
 * A received message's properties, parsed from their encoded string ({@link PropertyCodec}) on first use: most
 * consumers read the body and a timestamp only, so a pull need not build a map per message. Unmodifiable.
 *
 * <p>Thread-safe: the parse may run more than once when threads race, each producing the same map; the final
 * field of that map makes it safe to publish through a plain field.
 */
final class LazyProperties extends AbstractMap<String, String> {

    private final String encoded;
    /** Null until the first read; then an unmodifiable map. Racy but idempotent (see the class comment). */
    private Map<String, String> parsed;

    LazyProperties(String encoded) {
        this.encoded = encoded;
    }

    private Map<String, String> map() {
        Map<String, String> m = parsed;
        if (m == null) {
            m = Collections.unmodifiableMap(MessageProperties.parse(encoded));
            parsed = m;
        }
        return m;
    }

    @Override
    public String get(Object key) {
        return map().get(key);
    }

    @Override
    public boolean containsKey(Object key) {
        return map().containsKey(key);
    }

    @Override
    public int size() {
        return map().size();
    }

    @Override
    public Set<Entry<String, String>> entrySet() {
        return map().entrySet();
    }
}
