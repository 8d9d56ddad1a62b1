package io.sluice.client;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.sluice.remoting.protocol.body.MessageQueue;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(10)
class RunningInfoQueuesTest {

    @Test
    void readsApacheBareObjectKeys() {
        String body = "{\"properties\":{\"consumeType\":\"CONSUME_PASSIVELY\"},\"mqTable\":{"
                + "{\"brokerName\":\"broker-a\",\"queueId\":1,\"topic\":\"T\"}:{\"commitOffset\":5},"
                + "{\"brokerName\":\"broker-a\",\"queueId\":0,\"topic\":\"T\"}:{\"commitOffset\":7}},"
                + "\"statusTable\":{}}";
        assertEquals(Set.of(new MessageQueue("T", "broker-a", 0), new MessageQueue("T", "broker-a", 1)),
                RunningInfoQueues.of(body.getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void readsStringKeysHoldingQueueJson() {
        String body = "{\"mqTable\":{\"{\\\"brokerName\\\":\\\"b\\\",\\\"queueId\\\":3,\\\"topic\\\":\\\"U\\\"}\":{}}}";
        assertEquals(Set.of(new MessageQueue("U", "b", 3)),
                RunningInfoQueues.of(body.getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void aConsumerWithoutQueuesHoldsNone() {
        assertEquals(Set.of(), RunningInfoQueues.of("{\"properties\":{}}".getBytes(StandardCharsets.UTF_8)));
    }
}
