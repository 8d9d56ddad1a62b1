package io.sluice.client;

/** The producer, consumer or admin client was closed before or during the operation. */
public class ClientClosedException extends ClientException {

    public ClientClosedException(String message) {
        super(message);
    }
}
