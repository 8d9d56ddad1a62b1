package io.sluice.remoting.protocol.body;

import java.util.Map;

/**
 * A broker's topic table with its version (Apache {@code TopicConfigAndMappingSerializeWrapper}): the inner part of
 * {@link RegisterBrokerBody} and the body of a GET_ALL_TOPIC_CONFIG response.
 * <pre>
 * {"dataVersion":{...},"mappingDataVersion":{...},"topicConfigTable":{"T":{TopicConfig}},
 *  "topicQueueMappingDetailMap":{},"topicQueueMappingInfoMap":{}}
 * </pre>
 * Static topics are not implemented by Sluice: the two mapping maps are carried as opaque JSON objects (values are
 * fastjson2 {@code JSONObject}s when decoded) so that a body received from an Apache broker round-trips; Sluice
 * writes them empty.
 *
 * @param dataVersion version of the topic table; {@link DataVersion#ZERO} when absent
 * @param topicConfigTable topic name to config; never null
 * @param mappingDataVersion version of the static-topic mappings; {@link DataVersion#ZERO} when absent
 * @param topicQueueMappingInfoMap static-topic mapping info, opaque; never null
 * @param topicQueueMappingDetailMap static-topic mapping details, opaque; never null
 */
public record TopicConfigSerializeWrapper(
        DataVersion dataVersion,
        Map<String, TopicConfigWire> topicConfigTable,
        DataVersion mappingDataVersion,
        Map<String, Object> topicQueueMappingInfoMap,
        Map<String, Object> topicQueueMappingDetailMap) {

    /** Normalises absent members. */
    public TopicConfigSerializeWrapper {
        dataVersion = dataVersion == null ? DataVersion.ZERO : dataVersion;
        topicConfigTable = Copies.map(topicConfigTable, "topicConfigTable");
        mappingDataVersion = mappingDataVersion == null ? DataVersion.ZERO : mappingDataVersion;
        topicQueueMappingInfoMap = Copies.map(topicQueueMappingInfoMap, "topicQueueMappingInfoMap");
        topicQueueMappingDetailMap = Copies.map(topicQueueMappingDetailMap, "topicQueueMappingDetailMap");
    }

    /**
     * A wrapper without static-topic mappings.
     *
     * @param dataVersion version of the topic table
     * @param topicConfigTable topic name to config
     * @return the wrapper
     */
    public static TopicConfigSerializeWrapper of(DataVersion dataVersion,
                                                 Map<String, TopicConfigWire> topicConfigTable) {
        return new TopicConfigSerializeWrapper(dataVersion, topicConfigTable, DataVersion.ZERO, Map.of(), Map.of());
    }
}
