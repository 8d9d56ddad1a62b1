package io.sluice.namesrv.handler;

import io.sluice.namesrv.route.RouteTable;
import io.sluice.remoting.protocol.RemotingCommand;
import io.sluice.remoting.protocol.RequestCode;
import io.sluice.remoting.protocol.ResponseCode;
import io.sluice.remoting.protocol.body.TopicList;
import io.sluice.remoting.protocol.body.TopicRouteData;
import io.sluice.remoting.transport.ConnectionContext;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * Route and topology queries from clients and admin tools (docs/wire-protocol.md#name-server): GET_ROUTEINFO_BY_TOPIC
 * (105), GET_BROKER_CLUSTER_INFO (106), GET_ALL_TOPIC_LIST_FROM_NAMESERVER (206) and GET_TOPICS_BY_CLUSTER (224).
 * Bodies are standard JSON (quoted map keys) whatever the request version.
 */
public final class RouteQueryHandler implements NamesrvHandler {

    private static final Set<Integer> CODES = Set.of(RequestCode.GET_ROUTEINFO_BY_TOPIC,
            RequestCode.GET_BROKER_CLUSTER_INFO, RequestCode.GET_ALL_TOPIC_LIST_FROM_NAMESERVER,
            RequestCode.GET_TOPICS_BY_CLUSTER);

    /** Appended by Apache to TOPIC_NOT_EXIST remarks; clients never parse it. */
    private static final String FAQ = "\nSee https://rocketmq.apache.org/docs/bestPractice/06FAQ for further details.";

    private final RouteTable routes;
    private final boolean enableAllTopicList;

    /**
     * Creates the handler.
     *
     * @param routes the route table to read
     * @param enableAllTopicList whether GET_ALL_TOPIC_LIST_FROM_NAMESERVER is answered (else SYSTEM_ERROR "disable")
     */
    public RouteQueryHandler(RouteTable routes, boolean enableAllTopicList) {
        this.routes = Objects.requireNonNull(routes, "routes");
        this.enableAllTopicList = enableAllTopicList;
    }

    @Override
    public Set<Integer> codes() {
        return CODES;
    }

    @Override
    public RemotingCommand handle(ConnectionContext connection, RemotingCommand request) {
        return switch (request.code()) {
            case RequestCode.GET_ROUTEINFO_BY_TOPIC -> route(request);
            case RequestCode.GET_BROKER_CLUSTER_INFO -> Responses.success(request, routes.clusterInfo());
            case RequestCode.GET_ALL_TOPIC_LIST_FROM_NAMESERVER -> allTopics(request);
            case RequestCode.GET_TOPICS_BY_CLUSTER ->
                    Responses.success(request, TopicList.of(routes.topicsOfCluster(request.requireString("cluster"))));
            default -> throw new IllegalArgumentException("request code " + request.code() + " is not handled by "
                    + getClass().getSimpleName());
        };
    }

    private RemotingCommand route(RemotingCommand request) {
        String topic = request.requireString("topic");
        Optional<TopicRouteData> route = routes.routeOf(topic);
        if (route.isEmpty()) {
            return Responses.error(request, ResponseCode.TOPIC_NOT_EXIST,
                    "No topic route info in name server for the topic: " + topic + FAQ);
        }
        return Responses.success(request, route.get());
    }

    private RemotingCommand allTopics(RemotingCommand request) {
        if (!enableAllTopicList) {
            return Responses.systemError(request, "disable");
        }
        return Responses.success(request, TopicList.of(routes.allTopics()));
    }
}
