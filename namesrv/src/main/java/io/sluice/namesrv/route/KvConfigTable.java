package io.sluice.namesrv.route;

import io.sluice.remoting.protocol.body.KVTable;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * The name server's key-value configuration (PUT/GET/DELETE_KV_CONFIG), organised by namespace. The namespace
 * {@value #ORDER_TOPIC_CONFIG} holds ordered-topic layouts written by {@code mqadmin updateTopic -o true}.
 * Held in memory only.
 *
 * <p>Thread-safe: one {@link ReentrantReadWriteLock}, taken by the KV handlers for the duration of each method.
 */
public final class KvConfigTable {

    /** Namespace of ordered-topic layouts; returned to brokers in the REGISTER_BROKER response. */
    public static final String ORDER_TOPIC_CONFIG = "ORDER_TOPIC_CONFIG";

    private final ReadWriteLock lock = new ReentrantReadWriteLock();
    private final Map<String, Map<String, String>> namespaces = new TreeMap<>();

    /**
     * Sets a value.
     *
     * @param namespace the namespace
     * @param key the key
     * @param value the value
     * @return the previous value, if any
     */
    public Optional<String> put(String namespace, String key, String value) {
        BrokerRegistration.requireText(namespace, "namespace");
        BrokerRegistration.requireText(key, "key");
        if (value == null) {
            throw new IllegalArgumentException("value must not be null for " + namespace + "/" + key);
        }
        lock.writeLock().lock();
        try {
            return Optional.ofNullable(namespaces.computeIfAbsent(namespace, name -> new TreeMap<>()).put(key, value));
        } finally {
            lock.writeLock().unlock();
        }
    }

    /**
     * Reads a value.
     *
     * @param namespace the namespace
     * @param key the key
     * @return the value, if set
     */
    public Optional<String> get(String namespace, String key) {
        lock.readLock().lock();
        try {
            Map<String, String> entries = namespaces.get(namespace);
            return entries == null ? Optional.empty() : Optional.ofNullable(entries.get(key));
        } finally {
            lock.readLock().unlock();
        }
    }

    /**
     * Removes a value; an emptied namespace disappears.
     *
     * @param namespace the namespace
     * @param key the key
     * @return true if the value was set
     */
    public boolean delete(String namespace, String key) {
        lock.writeLock().lock();
        try {
            Map<String, String> entries = namespaces.get(namespace);
            if (entries == null || entries.remove(key) == null) {
                return false;
            }
            if (entries.isEmpty()) {
                namespaces.remove(namespace);
            }
            return true;
        } finally {
            lock.writeLock().unlock();
        }
    }

    /**
     * All entries of a namespace.
     *
     * @param namespace the namespace
     * @return the entries, or empty if the namespace has none
     */
    public Optional<KVTable> namespace(String namespace) {
        lock.readLock().lock();
        try {
            Map<String, String> entries = namespaces.get(namespace);
            return entries == null ? Optional.empty() : Optional.of(new KVTable(entries));
        } finally {
            lock.readLock().unlock();
        }
    }
}
