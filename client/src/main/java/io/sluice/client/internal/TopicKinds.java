package io.sluice.client.internal;

import io.sluice.remoting.protocol.RemotingCommand;
import io.sluice.remoting.protocol.RequestCode;
import io.sluice.remoting.protocol.ResponseCode;
import io.sluice.remoting.protocol.body.BodyCodec;
import io.sluice.remoting.protocol.body.TopicConfigWire;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Whether a topic is BatchCQ, learned once per topic from GET_TOPIC_CONFIG (351) and cached (the queue type cannot
 * change after creation).
 *
 * <p>Why the producer cares: a batch whose header carries a batch UNIQ_KEY is stored as one inner batch on a
 * BatchCQ topic, which is what we want there; on a SimpleCQ topic, Apache brokers up to 5.3.3 append the batch's
 * header properties to every unpacked message, so every message would show the batch's UNIQ_KEY instead of its
 * own. So the batch UNIQ_KEY is sent only to BatchCQ topics. When the broker cannot tell (an error, an unsupported
 * code), the topic is taken for BatchCQ: the send still works and each result still carries the message's own id.
 *
 * <p>Thread-safe: a map of topic to the future of its answer; failed lookups are not cached.
 */
public final class TopicKinds {
    private final Invoker invoker;
    private final long timeoutMs;
    private final ConcurrentHashMap<String, CompletableFuture<Boolean>> batchCq = new ConcurrentHashMap<>();

    public TopicKinds(Invoker invoker, long timeoutMs) {
        this.invoker = invoker;
        this.timeoutMs = timeoutMs;
    }

    /** Whether {@code topic} is BatchCQ, asking {@code address} the first time; never fails. */
    public CompletableFuture<Boolean> isBatchCq(String topic, String address) {
        CompletableFuture<Boolean> known = batchCq.get(topic);
        if (known != null) {
            return known;
        }
        CompletableFuture<Boolean> asking = new CompletableFuture<>();
        CompletableFuture<Boolean> raced = batchCq.putIfAbsent(topic, asking);
        if (raced != null) {
            return raced;
        }
        RemotingCommand request = RemotingCommand.request(RequestCode.GET_TOPIC_CONFIG).putExtField("topic", topic);
        Rpc.call(invoker, address, request, timeoutMs).whenComplete((response, error) -> {
            if (error != null || response.code() != ResponseCode.SUCCESS || response.body() == null) {
                batchCq.remove(topic, asking);
                asking.complete(true);
                return;
            }
            try {
                TopicConfigWire config = BodyCodec.decode(response.body(), TopicConfigWire.class);
                asking.complete("BatchCQ".equalsIgnoreCase(config.attributes().get("queue.type")));
            } catch (RuntimeException malformed) {
                batchCq.remove(topic, asking);
                asking.complete(true);
            }
        });
        return asking;
    }
}
