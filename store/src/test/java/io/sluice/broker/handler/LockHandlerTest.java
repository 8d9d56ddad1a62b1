package io.sluice.broker.handler;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.sluice.broker.lock.QueueLocks;
import io.sluice.broker.testing.FakeConnection;
import io.sluice.remoting.protocol.RemotingCommand;
import io.sluice.remoting.protocol.RequestCode;
import io.sluice.remoting.protocol.ResponseCode;
import io.sluice.remoting.protocol.body.BodyCodec;
import io.sluice.remoting.protocol.body.LockBatchRequestBody;
import io.sluice.remoting.protocol.body.LockBatchResponseBody;
import io.sluice.remoting.protocol.body.MessageQueue;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.Set;
import org.agrona.concurrent.SystemEpochClock;
import org.junit.jupiter.api.Test;

class LockHandlerTest {

    private static final MessageQueue Q0 = new MessageQueue("T1", "broker-a", 0);
    private static final MessageQueue Q1 = new MessageQueue("T1", "broker-a", 1);

    private final QueueLocks locks = new QueueLocks(60_000, SystemEpochClock.INSTANCE);
    private final LockHandler handler = new LockHandler(locks);
    private final FakeConnection connection = new FakeConnection(3001);

    private static RemotingCommand request(int code, String clientId, Set<MessageQueue> queues) {
        return RemotingCommand.request(code)
                .setBody(BodyCodec.encode(new LockBatchRequestBody("CG", clientId, false, queues)));
    }

    @Test
    void shouldAnswerTheQueuesTheClientHolds() {
        RemotingCommand first = handler.onLockBatch(connection, request(RequestCode.LOCK_BATCH_MQ, "c1", Set.of(Q0)));
        assertEquals(ResponseCode.SUCCESS, first.code());
        assertEquals(Set.of(Q0), BodyCodec.decode(first.body(), LockBatchResponseBody.class).lockOKMQSet());

        RemotingCommand second = handler.onLockBatch(connection,
                request(RequestCode.LOCK_BATCH_MQ, "c2", Set.of(Q0, Q1)));
        assertEquals(Set.of(Q1), BodyCodec.decode(second.body(), LockBatchResponseBody.class).lockOKMQSet());
    }

    @Test
    void shouldDecodeTheApacheBodyAndUnlock() {
        String apacheBody = "{\"clientId\":\"c1\",\"consumerGroup\":\"CG\",\"mqSet\":[{\"brokerName\":\"broker-a\","
                + "\"queueId\":0,\"topic\":\"T1\"}],\"onlyThisBroker\":false}";
        RemotingCommand lock = RemotingCommand.request(RequestCode.LOCK_BATCH_MQ)
                .setBody(apacheBody.getBytes(StandardCharsets.UTF_8));
        assertEquals(Set.of(Q0), BodyCodec.decode(handler.onLockBatch(connection, lock).body(),
                LockBatchResponseBody.class).lockOKMQSet());
        assertEquals(Optional.of("c1"), locks.holder("CG", Q0));

        RemotingCommand unlock = handler.onUnlockBatch(connection,
                request(RequestCode.UNLOCK_BATCH_MQ, "c1", Set.of(Q0)));
        assertEquals(ResponseCode.SUCCESS, unlock.code());
        assertEquals(Optional.empty(), locks.holder("CG", Q0));
    }

    @Test
    void shouldRefuseAMalformedBody() {
        RemotingCommand bad = RemotingCommand.request(RequestCode.LOCK_BATCH_MQ)
                .setBody("{\"mqSet\":[]}".getBytes(StandardCharsets.UTF_8));
        assertEquals(ResponseCode.SYSTEM_ERROR, handler.onLockBatch(connection, bad).code());
        assertEquals(ResponseCode.SYSTEM_ERROR,
                handler.onUnlockBatch(connection, RemotingCommand.request(RequestCode.UNLOCK_BATCH_MQ)).code());
    }
}
