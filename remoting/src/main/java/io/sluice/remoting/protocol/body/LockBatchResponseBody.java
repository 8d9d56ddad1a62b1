package io.sluice.remoting.protocol.body;

import java.util.Set;

/**
 * Body of a LOCK_BATCH_MQ (41) response: {@code {"lockOKMQSet":[{MessageQueue}]}}, the requested queues now locked
 * by (or already held by) the requesting client.
 *
 * @param lockOKMQSet the locked queues; never null
 */
public record LockBatchResponseBody(Set<MessageQueue> lockOKMQSet) {

    /** Normalises an absent set. */
    public LockBatchResponseBody {
        lockOKMQSet = Copies.set(lockOKMQSet, "lockOKMQSet");
    }
}
