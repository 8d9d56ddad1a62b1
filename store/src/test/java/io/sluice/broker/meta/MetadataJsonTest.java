package io.sluice.broker.meta;

import io.sluice.format.TopicFilterType;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.format.ConsumeQueueType;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

class MetadataJsonTest {

    @Test
    void shouldWriteTopicConfigExactlyAsApacheDoes() {
        TopicConfig t = TopicConfig.of("RocketMQ-Benchmark-bcq", 4, ConsumeQueueType.BATCH);
        assertEquals("{\"attributes\":{\"queue.type\":\"BatchCQ\"},\"order\":false,\"perm\":6,\"readQueueNums\":4,"
                + "\"topicFilterType\":\"SINGLE_TAG\",\"topicName\":\"RocketMQ-Benchmark-bcq\",\"topicSysFlag\":0,"
                + "\"writeQueueNums\":4}", MetadataJson.topicToJson(t));
        assertEquals("{\"attributes\":{},\"order\":false,\"perm\":6,\"readQueueNums\":4,"
                + "\"topicFilterType\":\"SINGLE_TAG\",\"topicName\":\"T\",\"topicSysFlag\":0,\"writeQueueNums\":4}",
                MetadataJson.topicToJson(TopicConfig.of("T", 4, ConsumeQueueType.SIMPLE)));
    }

    @Test
    void shouldReadApacheTopicJsonIgnoringUnknownFields() {
        TopicConfig t = MetadataJson.topicFromJson("{\"attributes\":{\"queue.type\":\"BatchCQ\"},\"order\":true,"
                + "\"perm\":7,\"readQueueNums\":8,\"topicFilterType\":\"MULTI_TAG\",\"topicName\":\"TBW102\","
                + "\"topicSysFlag\":0,\"writeQueueNums\":8,\"mappingDetail\":null,\"someFutureField\":42}");
        assertEquals(new TopicConfig("TBW102", 8, 8, 7, TopicFilterType.MULTI_TAG, 0, true, ConsumeQueueType.BATCH,
                Map.of("queue.type", "BatchCQ")), t);
    }

    @Test
    void shouldRejectTopicJsonWithoutNameOrWithBadValues() {
        IllegalArgumentException noName = assertThrows(IllegalArgumentException.class,
                () -> MetadataJson.topicFromJson("{\"readQueueNums\":4}"));
        assertTrue(noName.getMessage().contains("topicName"), noName.getMessage());
        assertThrows(IllegalArgumentException.class,
                () -> MetadataJson.topicFromJson("{\"topicName\":\"t\",\"readQueueNums\":\"many\"}"));
        assertThrows(IllegalArgumentException.class,
                () -> MetadataJson.topicFromJson("{\"topicName\":\"t\",\"topicFilterType\":\"NO_TAG\"}"));
        assertThrows(IllegalArgumentException.class, () -> MetadataJson.topicFromJson("{not json"));
    }

    @Test
    void shouldRoundTripGroupsAndFillApacheDefaults() {
        SubscriptionGroupConfig g = SubscriptionGroupConfig.builder("sub-x").retryMaxTimes(3).consumeEnable(false)
                .brokerId(0).attributes(Map.of("k", "v")).build();
        assertEquals(g, MetadataJson.groupFromJson(MetadataJson.groupToJson(g)));
        SubscriptionGroupConfig minimal = MetadataJson.groupFromJson("{\"groupName\":\"g\",\"groupRetryPolicy\":{}}");
        assertEquals(SubscriptionGroupConfig.defaults("g"), minimal);
        assertEquals(1, minimal.retryQueueNums());
        assertEquals(16, minimal.retryMaxTimes());
        assertEquals(1, minimal.whichBrokerWhenConsumeSlowly());
        assertTrue(minimal.notifyConsumerIdsChangedEnable());
        assertThrows(IllegalArgumentException.class,
                () -> MetadataJson.groupFromJson("{\"groupName\":\"g\",\"retryMaxTimes\":-2}"));
    }

    @Test
    void shouldWriteDataVersionAndTopicWrapperInApacheShape() {
        TableVersion v = new TableVersion(0, 1795250930447L, 1);
        assertEquals("{\"counter\":1,\"stateVersion\":0,\"timestamp\":1795250930447}", MetadataJson.dataVersionToJson(v));
        assertEquals(v, MetadataJson.dataVersionFromJson(MetadataJson.dataVersionToJson(v)));
        assertThrows(IllegalArgumentException.class, () -> MetadataJson.dataVersionFromJson("{\"counter\":1}"));

        TopicTable table = new TopicTable(v, Map.of("T", TopicConfig.of("T", 4, ConsumeQueueType.SIMPLE)));
        assertEquals("{\"dataVersion\":{\"counter\":1,\"stateVersion\":0,\"timestamp\":1795250930447},"
                + "\"mappingDataVersion\":{\"counter\":0,\"stateVersion\":0,\"timestamp\":1795250930447},"
                + "\"topicConfigTable\":{\"T\":{\"attributes\":{},\"order\":false,\"perm\":6,\"readQueueNums\":4,"
                + "\"topicFilterType\":\"SINGLE_TAG\",\"topicName\":\"T\",\"topicSysFlag\":0,\"writeQueueNums\":4}},"
                + "\"topicQueueMappingDetailMap\":{}}", MetadataJson.topicConfigWrapperJson(table));
    }

    @Property(tries = 200)
    void topicJsonShouldRoundTrip(@ForAll("topics") TopicConfig topic) {
        assertEquals(topic, MetadataJson.topicFromJson(MetadataJson.topicToJson(topic)));
    }

    @Provide
    Arbitrary<TopicConfig> topics() {
        Arbitrary<String> names = Arbitraries.strings().withChars("azAZ09%|_-").ofMinLength(1).ofMaxLength(127);
        Arbitrary<Integer> queues = Arbitraries.integers().between(1, TopicConfig.MAX_QUEUE_NUMS);
        Arbitrary<Integer> perms = Arbitraries.integers().between(0, TopicPerm.ALL);
        Arbitrary<ConsumeQueueType> types = Arbitraries.of(ConsumeQueueType.class);
        Arbitrary<Map<String, String>> extra = Arbitraries.maps(
                Arbitraries.of("message.type", "cleanup.policy", "x"), Arbitraries.of("NORMAL", "DELETE", "\"q\u00e9\""))
                .ofMaxSize(3);
        return Combinators.combine(names, queues, queues, perms, Arbitraries.of(TopicFilterType.class),
                Arbitraries.integers().between(0, 3), types, extra)
                .as((n, r, w, p, f, s, q, a) -> new TopicConfig(n, r, w, p, f, s, s % 2 == 0, q, a));
    }
}
