package io.sluice.client;

/**
 * A client operation failed: the broker or name server could not be reached, did not answer in time, or
 * answered something the client cannot use. Subtypes say more: {@link BrokerErrorException} (an error code),
 * {@link ClientClosedException}, {@link BatchMemoryFullException}. Bad arguments and settings are reported with
 * {@link IllegalArgumentException} instead, before anything is sent.
 */
public class ClientException extends RuntimeException {

    public ClientException(String message) {
        super(message);
    }

    public ClientException(String message, Throwable cause) {
        super(message, cause);
    }
}
