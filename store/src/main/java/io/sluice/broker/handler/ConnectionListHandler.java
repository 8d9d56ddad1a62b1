package io.sluice.broker.handler;

import io.sluice.broker.client.ClientConnection;
import io.sluice.broker.client.ClientRegistry;
import io.sluice.broker.client.ConsumerGroupView;
import io.sluice.remoting.protocol.RemotingCommand;
import io.sluice.remoting.protocol.ResponseCode;
import io.sluice.remoting.protocol.body.BodyCodec;
import io.sluice.remoting.protocol.body.ConnectionEntry;
import io.sluice.remoting.protocol.body.ConsumerConnection;
import io.sluice.remoting.transport.ConnectionContext;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Who is connected, for admin tools (docs/wire-protocol.md#admin-queries): GET_CONSUMER_CONNECTION_LIST (203) and
 * GET_PRODUCER_CONNECTION_LIST (204).
 *
 * <ul>
 *   <li>203, header {@code consumerGroup}: body ConsumerConnection (connections, subscriptions, consume type,
 *       message model, consume-from-where); CONSUMER_NOT_ONLINE when the group has no live member.</li>
 *   <li>204, header {@code producerGroup}: body ProducerConnection {@code {"connectionSet":[...]}}; SYSTEM_ERROR
 *       when the group has no live member (as Apache answers).</li>
 * </ul>
 *
 * <p>Thread-safe; stateless apart from the {@link ClientRegistry}. Quick enough for the connection's lane.
 */
public final class ConnectionListHandler {

    private final ClientRegistry clients;

    /** @param clients group membership */
    public ConnectionListHandler(ClientRegistry clients) {
        this.clients = clients;
    }

    /** GET_CONSUMER_CONNECTION_LIST (203). */
    public RemotingCommand onGetConsumerConnectionList(ConnectionContext connection, RemotingCommand request) {
        String group = request.requireString("consumerGroup");
        Optional<ConsumerGroupView> view = clients.consumerGroup(group);
        if (view.isEmpty() || view.get().connections().isEmpty()) {
            return RemotingCommand.response(ResponseCode.CONSUMER_NOT_ONLINE, "the consumer group[" + group
                    + "] not online");
        }
        ConsumerGroupView g = view.get();
        ConsumerConnection body = new ConsumerConnection(connections(g.connections()), g.subscriptions(),
                g.consumeType(), g.messageModel(), g.consumeFromWhere());
        return RemotingCommand.response(ResponseCode.SUCCESS, null).setBody(BodyCodec.encode(body));
    }

    /** GET_PRODUCER_CONNECTION_LIST (204). */
    public RemotingCommand onGetProducerConnectionList(ConnectionContext connection, RemotingCommand request) {
        String group = request.requireString("producerGroup");
        List<ClientConnection> members = clients.producerConnections(group);
        if (members.isEmpty()) {
            return RemotingCommand.response(ResponseCode.SYSTEM_ERROR, "the producer group[" + group
                    + "] not exist");
        }
        return RemotingCommand.response(ResponseCode.SUCCESS, null)
                .setBody(BodyCodec.encode(Map.of("connectionSet", connections(members))));
    }

    private static Set<ConnectionEntry> connections(List<ClientConnection> members) {
        Set<ConnectionEntry> set = new LinkedHashSet<>();
        for (ClientConnection m : members) {
            set.add(new ConnectionEntry(m.clientId(), m.clientAddr(), m.language().name(), m.version()));
        }
        return set;
    }
}
