package io.sluice.broker.handler;

import io.sluice.broker.lock.QueueLocks;
import io.sluice.remoting.protocol.RemotingCommand;
import io.sluice.remoting.protocol.ResponseCode;
import io.sluice.remoting.protocol.body.BodyCodec;
import io.sluice.remoting.protocol.body.BodyFormatException;
import io.sluice.remoting.protocol.body.LockBatchRequestBody;
import io.sluice.remoting.protocol.body.LockBatchResponseBody;
import io.sluice.remoting.protocol.body.MessageQueue;
import io.sluice.remoting.transport.ConnectionContext;
import java.util.Set;

/**
 * Queue locks of orderly consumers (docs/wire-protocol.md#queue-locks): LOCK_BATCH_MQ (41) and UNLOCK_BATCH_MQ (42).
 * Both carry a {@link LockBatchRequestBody} and no header; LOCK answers the queues the client now holds, UNLOCK answers
 * SUCCESS (and is often oneway). {@code onlyThisBroker} only matters to proxies and is ignored.
 *
 * <p>Thread-safe; stateless apart from its {@link QueueLocks}. Quick enough for the connection's lane.
 */
public final class LockHandler {

    private final QueueLocks locks;

    /** @param locks the lock table */
    public LockHandler(QueueLocks locks) {
        this.locks = locks;
    }

    /** LOCK_BATCH_MQ (41): body {@code {"lockOKMQSet":[...]}}, the requested queues the client now holds. */
    public RemotingCommand onLockBatch(ConnectionContext connection, RemotingCommand request) {
        LockBatchRequestBody body;
        try {
            body = BodyCodec.decode(request.body(), LockBatchRequestBody.class);
        } catch (BodyFormatException e) {
            return RemotingCommand.response(ResponseCode.SYSTEM_ERROR, "malformed LOCK_BATCH_MQ body: "
                    + e.getMessage());
        }
        Set<MessageQueue> held = locks.tryLock(body.consumerGroup(), body.clientId(), body.mqSet());
        return RemotingCommand.response(ResponseCode.SUCCESS, null)
                .setBody(BodyCodec.encode(new LockBatchResponseBody(held)));
    }

    /** UNLOCK_BATCH_MQ (42): releases the listed queues the client holds. */
    public RemotingCommand onUnlockBatch(ConnectionContext connection, RemotingCommand request) {
        LockBatchRequestBody body;
        try {
            body = BodyCodec.decode(request.body(), LockBatchRequestBody.class);
        } catch (BodyFormatException e) {
            return RemotingCommand.response(ResponseCode.SYSTEM_ERROR, "malformed UNLOCK_BATCH_MQ body: "
                    + e.getMessage());
        }
        locks.unlock(body.consumerGroup(), body.clientId(), body.mqSet());
        return RemotingCommand.response(ResponseCode.SUCCESS, null);
    }
}
