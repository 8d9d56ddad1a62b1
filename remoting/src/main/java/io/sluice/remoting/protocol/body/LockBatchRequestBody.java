package io.sluice.remoting.protocol.body;

import java.util.Set;

/**
 * Body of LOCK_BATCH_MQ (41) and UNLOCK_BATCH_MQ (42) requests:
 * {@code {"clientId":"cid","consumerGroup":"CG","mqSet":[{MessageQueue}],"onlyThisBroker":false}}.
 *
 * @param consumerGroup the group whose queues are locked
 * @param clientId the client asking for (or releasing) the locks
 * @param onlyThisBroker whether a proxy should restrict the request to the broker it reached
 * @param mqSet the queues; never null
 */
public record LockBatchRequestBody(String consumerGroup, String clientId, boolean onlyThisBroker,
                                   Set<MessageQueue> mqSet) {

    /** Validates required members and normalises the queue set. */
    public LockBatchRequestBody {
        Copies.required(consumerGroup, "consumerGroup");
        Copies.required(clientId, "clientId");
        mqSet = Copies.set(mqSet, "mqSet");
    }
}
