package io.sluice.client;

import io.sluice.remoting.protocol.body.BodyCodec;
import io.sluice.remoting.protocol.body.MessageQueue;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The queues a consumer reports holding, read from the {@code mqTable} of its GET_CONSUMER_RUNNING_INFO answer
 * (Apache's ConsumerRunningInfo). Apache's client writes each key as a bare JSON object, Sluice's body codec as a
 * string holding one; both are read:
 * <pre>
 * {"mqTable":{{"brokerName":"b","queueId":0,"topic":"T"}:{ProcessQueueInfo},...},"properties":{...},...}
 * </pre>
 * Stateless.
 */
final class RunningInfoQueues {

    private RunningInfoQueues() {
    }

    /** The queues of {@code body}'s {@code mqTable}; empty when it has none. */
    static Set<MessageQueue> of(byte[] body) {
        Set<MessageQueue> queues = new TreeSet<>();
        Object table = BodyCodec.decode(body, Map.class).get("mqTable");
        if (table instanceof Map<?, ?> byQueue) {
            for (Object key : byQueue.keySet()) {
                if (key instanceof Map<?, ?> queue) {
                    queues.add(new MessageQueue(String.valueOf(queue.get("topic")),
                            String.valueOf(queue.get("brokerName")), Integer.parseInt(String.valueOf(
                                    queue.get("queueId")))));
                } else {
                    queues.add(BodyCodec.decode(key.toString().getBytes(StandardCharsets.UTF_8), MessageQueue.class));
                }
            }
        }
        return queues;
    }
}
