package io.sluice.broker.handler;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.sluice.broker.client.ClientRegistry;
import io.sluice.broker.testing.FakeConnection;
import io.sluice.remoting.protocol.LanguageCode;
import io.sluice.remoting.protocol.RemotingCommand;
import io.sluice.remoting.protocol.RequestCode;
import io.sluice.remoting.protocol.ResponseCode;
import io.sluice.remoting.protocol.body.BodyCodec;
import io.sluice.remoting.protocol.body.ConnectionEntry;
import io.sluice.remoting.protocol.body.ConsumeFromWhere;
import io.sluice.remoting.protocol.body.ConsumeType;
import io.sluice.remoting.protocol.body.ConsumerConnection;
import io.sluice.remoting.protocol.body.ConsumerData;
import io.sluice.remoting.protocol.body.MessageModel;
import io.sluice.remoting.protocol.body.SubscriptionData;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import org.agrona.concurrent.SystemEpochClock;
import org.junit.jupiter.api.Test;

class ConnectionListHandlerTest {

    private final ClientRegistry clients = new ClientRegistry(120_000, SystemEpochClock.INSTANCE, group -> false);
    private final ConnectionListHandler handler = new ConnectionListHandler(clients);
    private final FakeConnection connection = new FakeConnection(6001);

    @Test
    void shouldListTheConsumersOfAGroup() {
        SubscriptionData sub = new SubscriptionData("T1", "*", Set.of(), Set.of(), 7, "TAG", false);
        clients.registerConsumer(connection, "ip@c1", LanguageCode.JAVA, 475, new ConsumerData("CG",
                ConsumeType.CONSUME_PASSIVELY, MessageModel.CLUSTERING, ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET,
                Set.of(sub), false));
        RemotingCommand response = handler.onGetConsumerConnectionList(connection,
                RemotingCommand.request(RequestCode.GET_CONSUMER_CONNECTION_LIST).putExtField("consumerGroup", "CG"));
        assertEquals(ResponseCode.SUCCESS, response.code());
        ConsumerConnection body = BodyCodec.decode(response.body(), ConsumerConnection.class);
        assertEquals(Set.of(new ConnectionEntry("ip@c1", "127.0.0.1:6001", "JAVA", 475)), body.connectionSet());
        assertEquals(sub, body.subscriptionTable().get("T1"));
        assertEquals(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET, body.consumeFromWhere());
        assertEquals(MessageModel.CLUSTERING, body.messageModel());
    }

    @Test
    void shouldAnswerConsumerNotOnline() {
        RemotingCommand response = handler.onGetConsumerConnectionList(connection,
                RemotingCommand.request(RequestCode.GET_CONSUMER_CONNECTION_LIST).putExtField("consumerGroup", "x"));
        assertEquals(ResponseCode.CONSUMER_NOT_ONLINE, response.code());
    }

    @Test
    void shouldListTheProducersOfAGroup() {
        clients.registerProducer(connection, "ip@p1", LanguageCode.JAVA, 441, "PG");
        RemotingCommand response = handler.onGetProducerConnectionList(connection,
                RemotingCommand.request(RequestCode.GET_PRODUCER_CONNECTION_LIST).putExtField("producerGroup", "PG"));
        assertEquals(ResponseCode.SUCCESS, response.code());
        assertEquals("{\"connectionSet\":[{\"clientAddr\":\"127.0.0.1:6001\",\"clientId\":\"ip@p1\","
                + "\"language\":\"JAVA\",\"version\":441}]}", new String(response.body(), StandardCharsets.UTF_8));

        RemotingCommand missing = handler.onGetProducerConnectionList(connection,
                RemotingCommand.request(RequestCode.GET_PRODUCER_CONNECTION_LIST).putExtField("producerGroup", "no"));
        assertEquals(ResponseCode.SYSTEM_ERROR, missing.code());
    }
}
