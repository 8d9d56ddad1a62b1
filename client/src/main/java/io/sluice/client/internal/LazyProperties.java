package io.sluice.client.internal;

import io.sluice.format.MessageProperties;
import java.nio.charset.StandardCharsets;
import java.util.AbstractMap;
import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * A received message's properties, decoded and parsed ({@link MessageProperties}) on first use: most consumers read
 * the body and a timestamp only, so a pull need not build a string and a map per message. Unmodifiable. The encoded
 * bytes may be a range of the pulled body, which this map then keeps reachable until it is parsed.
 *
 * <p>Thread-safe: the parse may run more than once when threads race, each producing the same map; the final
 * field of that map makes it safe to publish through a plain field.
 */
final class LazyProperties extends AbstractMap<String, String> {

    private final byte[] source;
    private final int offset;
    private final int length;
    /** Null until the first read; then an unmodifiable map. Racy but idempotent (see the class comment). */
    private Map<String, String> parsed;

    LazyProperties(String encoded) {
        this(encoded.getBytes(StandardCharsets.UTF_8));
    }

    private LazyProperties(byte[] encoded) {
        this(encoded, 0, encoded.length);
    }

    /** The UTF-8 encoded properties at {@code source[offset, offset + length)}, which must not change. */
    LazyProperties(byte[] source, int offset, int length) {
        Objects.checkFromIndexSize(offset, length, source.length);
        this.source = source;
        this.offset = offset;
        this.length = length;
    }

    private Map<String, String> map() {
        Map<String, String> m = parsed;
        if (m == null) {
            m = Collections.unmodifiableMap(MessageProperties.parse(new String(source, offset, length,
                    StandardCharsets.UTF_8)));
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
