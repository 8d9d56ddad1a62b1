package io.sluice.broker.transaction;

import io.sluice.remoting.protocol.ResponseCode;

/**
 * What one END_TRANSACTION did, and the answer to a caller that waits for one (the Apache client sends it oneway
 * and reads none).
 */
enum EndOutcome {
    COMMITTED(ResponseCode.SUCCESS, "committed: the message is stored in its topic"),
    ROLLED_BACK(ResponseCode.SUCCESS, "rolled back: the message is discarded"),
    LEFT_PENDING(ResponseCode.SUCCESS, "state unknown: the half message stays pending and will be checked back"),
    ALREADY_RESOLVED(ResponseCode.SUCCESS, "the transaction is already resolved: nothing changed"),
    NO_SUCH_HALF(ResponseCode.INVALID_PARAMETER, "no half message at this commitLogOffset and"
            + " tranStateTableOffset: nothing changed"),
    WRONG_GROUP(ResponseCode.INVALID_PARAMETER, "the producer group is not the half message's: nothing changed"),
    NO_REAL_TOPIC(ResponseCode.TOPIC_NOT_EXIST, "the half message's topic does not exist (any more): it stays"
            + " pending until transactionCheckMax checks pass"),
    STORE_FAILED(ResponseCode.SERVICE_NOT_AVAILABLE, "the outcome could not be stored: the half message stays"
            + " pending and will be checked back");

    final int code;
    final String remark;

    EndOutcome(int code, String remark) {
        this.code = code;
        this.remark = remark;
    }
}
