package io.sluice.remoting.protocol.body;

/**
 * One client connection of a consumer group in {@link ConsumerConnection}:
 * {@code {"clientAddr":"1.2.3.4:5","clientId":"cid","language":"JAVA","version":441}}.
 *
 * @param clientId the client id from its heartbeat
 * @param clientAddr the client's remote {@code ip:port}
 * @param language the client's language code, by name (e.g. {@code JAVA})
 * @param version the client's version ordinal (e.g. 441 for 5.1.4)
 */
public record ConnectionEntry(String clientId, String clientAddr, String language, int version) {

    /** Validates the client id. */
    public ConnectionEntry {
        Copies.required(clientId, "clientId");
    }
}
