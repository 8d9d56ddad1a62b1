package io.sluice.broker.meta;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.format.ConsumeQueueType;
import java.util.List;
import java.util.function.Function;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;

/**
 * Stored metadata read back from damaged text (a cut or a dropped run of characters, as a torn write or a bad
 * hand edit leaves it) is either read or refused with an {@link IllegalArgumentException}, never another exception
 * that would stop the broker with a stack trace instead of the record's name; and groups and versions read back as
 * written.
 */
class MetadataJsonDamagePropertyTest {

    @Property(tries = 300)
    void aDamagedTopicIsReadOrRefused(@ForAll("topics") TopicConfig topic,
                                      @ForAll @DoubleRange(min = 0, max = 1) double at,
                                      @ForAll @IntRange(min = 0, max = 4) int dropped) {
        readOrRefused(damage(MetadataJson.topicToJson(topic), at, dropped), MetadataJson::topicFromJson);
    }

    @Property(tries = 300)
    void aDamagedGroupIsReadOrRefused(@ForAll("groups") SubscriptionGroupConfig group,
                                      @ForAll @DoubleRange(min = 0, max = 1) double at,
                                      @ForAll @IntRange(min = 0, max = 4) int dropped) {
        readOrRefused(damage(MetadataJson.groupToJson(group), at, dropped), MetadataJson::groupFromJson);
    }

    @Property(tries = 200)
    void aDamagedVersionIsReadOrRefused(@ForAll long stateVersion, @ForAll long timestamp,
                                        @ForAll @LongRange(min = 0) long counter,
                                        @ForAll @DoubleRange(min = 0, max = 1) double at,
                                        @ForAll @IntRange(min = 0, max = 4) int dropped) {
        String json = MetadataJson.dataVersionToJson(new TableVersion(stateVersion, timestamp, counter));
        assertEquals(new TableVersion(stateVersion, timestamp, counter), MetadataJson.dataVersionFromJson(json));
        readOrRefused(damage(json, at, dropped), MetadataJson::dataVersionFromJson);
    }

    @Property(tries = 200)
    void aGroupReadsBackAsWritten(@ForAll("groups") SubscriptionGroupConfig group) {
        assertEquals(group, MetadataJson.groupFromJson(MetadataJson.groupToJson(group)));
    }

    @Example
    void textCutAfterAMemberNameIsRefusedNamingTheRecord() {
        for (String text : List.of("{\"topicName\"", "{\"topicName\"   ")) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> MetadataJson.topicFromJson(text));
            assertTrue(e.getMessage().startsWith("malformed TopicConfig JSON"), e.getMessage());
        }
        IllegalArgumentException group = assertThrows(IllegalArgumentException.class,
                () -> MetadataJson.groupFromJson("{\"groupName\""));
        assertTrue(group.getMessage().startsWith("malformed SubscriptionGroupConfig JSON"), group.getMessage());
        IllegalArgumentException version = assertThrows(IllegalArgumentException.class,
                () -> MetadataJson.dataVersionFromJson("{\"counter\""));
        assertTrue(version.getMessage().startsWith("malformed TableVersion JSON"), version.getMessage());
    }

    private static String damage(String json, double at, int dropped) {
        int from = (int) (at * json.length());
        return dropped == 0 ? json.substring(0, from)
                : json.substring(0, from) + json.substring(Math.min(json.length(), from + dropped));
    }

    private static void readOrRefused(String text, Function<String, ?> reader) {
        try {
            reader.apply(text);
        } catch (IllegalArgumentException e) {
            assertTrue(e.getMessage() != null && !e.getMessage().isBlank(), text);
        }
    }

    @Provide
    Arbitrary<TopicConfig> topics() {
        Arbitrary<String> names = Arbitraries.strings().withChars("azAZ09%|_-").ofMinLength(1).ofMaxLength(20);
        return Combinators.combine(names, Arbitraries.integers().between(1, 64), Arbitraries.of(ConsumeQueueType.class))
                .as(TopicConfig::of);
    }

    @Provide
    Arbitrary<SubscriptionGroupConfig> groups() {
        Arbitrary<String> names = Arbitraries.strings().withChars("azAZ09%|_-").ofMinLength(1).ofMaxLength(20);
        return Combinators.combine(names, Arbitraries.of(true, false), Arbitraries.integers().between(0, 16),
                Arbitraries.longs().between(0, 8), Arbitraries.integers().between(1, 60))
                .as((name, flag, retries, brokerId, timeout) -> SubscriptionGroupConfig.builder(name)
                        .consumeEnable(flag).consumeBroadcastEnable(!flag).retryMaxTimes(retries)
                        .whichBrokerWhenConsumeSlowly(brokerId).consumeTimeoutMinute(timeout).build());
    }
}
