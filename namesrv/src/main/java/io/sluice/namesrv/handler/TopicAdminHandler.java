package io.sluice.namesrv.handler;

import io.sluice.namesrv.route.RouteTable;
import io.sluice.remoting.protocol.RemotingCommand;
import io.sluice.remoting.protocol.RequestCode;
import io.sluice.remoting.transport.ConnectionContext;
import java.util.Objects;
import java.util.Set;

/**
 * Topic administration on the name server: DELETE_TOPIC_IN_NAMESRV (216), header {@code topic} and optional
 * {@code clusterName}. Used by {@code mqadmin deleteTopic} after deleting the topic on the brokers; always answers
 * SUCCESS, even for an unknown topic.
 */
public final class TopicAdminHandler implements NamesrvHandler {

    private final RouteTable routes;

    /**
     * Creates the handler.
     *
     * @param routes the route table to update
     */
    public TopicAdminHandler(RouteTable routes) {
        this.routes = Objects.requireNonNull(routes, "routes");
    }

    @Override
    public Set<Integer> codes() {
        return Set.of(RequestCode.DELETE_TOPIC_IN_NAMESRV);
    }

    @Override
    public RemotingCommand handle(ConnectionContext connection, RemotingCommand request) {
        if (request.code() != RequestCode.DELETE_TOPIC_IN_NAMESRV) {
            throw new IllegalArgumentException("request code " + request.code() + " is not handled by "
                    + getClass().getSimpleName());
        }
        String topic = request.requireString("topic");
        routes.deleteTopic(topic, request.optionalString("clusterName", null));
        return Responses.success(request);
    }
}
