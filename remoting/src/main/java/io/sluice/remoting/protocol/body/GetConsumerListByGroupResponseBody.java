package io.sluice.remoting.protocol.body;

import java.util.List;

/**
 * Body of a GET_CONSUMER_LIST_BY_GROUP (38) response: {@code {"consumerIdList":["192.0.2.2@instance"]}}.
 *
 * @param consumerIdList client ids of the group's live connections; never null
 */
public record GetConsumerListByGroupResponseBody(List<String> consumerIdList) {

    /** Normalises an absent list. */
    public GetConsumerListByGroupResponseBody {
        consumerIdList = Copies.list(consumerIdList, "consumerIdList");
    }
}
