package io.sluice.remoting.protocol.body;

import java.util.List;

/**
 * Body of REGISTER_BROKER (103), uncompressed form:
 * {@code {"filterServerList":[],"topicConfigSerializeWrapper":{...}}}. A full registration lists every topic of the
 * broker; an incremental one only the new or changed topics, with a bumped data version.
 *
 * @param topicConfigSerializeWrapper the broker's topics and their version; never null
 * @param filterServerList filter-server addresses (always empty in practice); never null
 */
public record RegisterBrokerBody(TopicConfigSerializeWrapper topicConfigSerializeWrapper, List<String> filterServerList) {

    /** Normalises absent members. */
    public RegisterBrokerBody {
        topicConfigSerializeWrapper = topicConfigSerializeWrapper == null
                ? TopicConfigSerializeWrapper.of(DataVersion.ZERO, null)
                : topicConfigSerializeWrapper;
        filterServerList = Copies.list(filterServerList, "filterServerList");
    }
}
