package io.sluice.client;

/**
 * A broker or name server answered with an error response code (docs/wire-protocol.md#response-codes), e.g.
 * 17 TOPIC_NOT_EXIST, 13 MESSAGE_ILLEGAL, 16 NO_PERMISSION. Carries the code, the server's remark and the address
 * it came from.
 */
public class BrokerErrorException extends ClientException {
    private final int code;
    private final String remark;
    private final String address;

    /**
     * @param code the response code
     * @param remark the server's remark, may be null
     * @param address the server's {@code host:port}
     */
    public BrokerErrorException(int code, String remark, String address) {
        super("code " + code + " from " + address + ": " + remark);
        this.code = code;
        this.remark = remark;
        this.address = address;
    }

    /** The response code. */
    public int code() {
        return code;
    }

    /** The server's remark, or null. */
    public String remark() {
        return remark;
    }

    /** The answering server's {@code host:port}. */
    public String address() {
        return address;
    }
}
