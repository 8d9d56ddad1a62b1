package io.sluice.broker;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Set;
import org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyStatus;
import org.apache.rocketmq.client.consumer.listener.MessageListenerConcurrently;
import org.apache.rocketmq.common.message.MessageExt;

/** Message bodies that carry their number and a pattern derived from it, so that a consumer can check each one. */
final class NumberedMessages {

    private NumberedMessages() {
    }

    /** The body of message {@code n}: {@code n} as 4 bytes, then a pattern of {@code n}, {@code bodyBytes} in all. */
    static byte[] body(int n, int bodyBytes) {
        ByteBuffer b = ByteBuffer.allocate(bodyBytes).putInt(n);
        while (b.hasRemaining()) {
            b.put((byte) (n * 17 + b.position()));
        }
        return b.array();
    }

    /** A listener that adds each message's number to {@code received}, and to {@code corrupt} if its body is wrong. */
    static MessageListenerConcurrently recording(Set<Integer> received, Set<Integer> corrupt) {
        return (messages, context) -> {
            for (MessageExt m : messages) {
                int n = ByteBuffer.wrap(m.getBody()).getInt();
                if (!Arrays.equals(m.getBody(), body(n, m.getBody().length))) {
                    corrupt.add(n);
                }
                received.add(n);
            }
            return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
        };
    }
}
