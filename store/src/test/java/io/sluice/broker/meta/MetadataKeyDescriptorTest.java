package io.sluice.broker.meta;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.store.TopicNames;
import java.util.Arrays;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

class MetadataKeyDescriptorTest {

    @Property(tries = 200)
    void offsetKeyShouldRoundTrip(@ForAll("groups") String group,
                                  @ForAll("topics") String topic,
                                  @ForAll @IntRange(min = 0, max = 65_534) int queueId,
                                  @ForAll long offset) {
        byte[] key = MetadataKeyDescriptor.offsetKey(group, topic, queueId);
        assertEquals(group.length() + topic.length() + 6, key.length);
        assertEquals(new ConsumerOffset(group, topic, queueId, offset),
                MetadataKeyDescriptor.decodeOffset(key, MetadataKeyDescriptor.encodeLong(offset)));
        assertTrue(MetadataKeyDescriptor.startsWith(key, MetadataKeyDescriptor.groupOffsetsStart(group)));
        assertTrue(Arrays.compareUnsigned(key, MetadataKeyDescriptor.groupOffsetsEnd(group)) < 0);
    }

    @Property(tries = 200)
    void groupPrefixShouldNotMatchAnotherGroupStartingWithTheSameCharacters(
            @ForAll("shortNames") String group,
            @ForAll("shortNames") String suffix) {
        byte[] otherKey = MetadataKeyDescriptor.offsetKey(group + suffix, "t", 0);
        assertFalse(MetadataKeyDescriptor.startsWith(otherKey, MetadataKeyDescriptor.groupOffsetsStart(group)));
        byte[] start = MetadataKeyDescriptor.groupOffsetsStart(group);
        byte[] end = MetadataKeyDescriptor.groupOffsetsEnd(group);
        assertFalse(Arrays.compareUnsigned(otherKey, start) >= 0 && Arrays.compareUnsigned(otherKey, end) < 0);
    }

    @Test
    void shouldSortOneGroupsKeysByTopicThenQueueId() {
        byte[] a = MetadataKeyDescriptor.offsetKey("g", "t", 1);
        byte[] b = MetadataKeyDescriptor.offsetKey("g", "t", 256);
        byte[] c = MetadataKeyDescriptor.offsetKey("g", "t0", 0);
        assertTrue(Arrays.compareUnsigned(a, b) < 0);
        assertTrue(Arrays.compareUnsigned(b, c) < 0);
    }

    @Test
    void shouldRejectMalformedKeysAndValues() {
        assertThrows(IllegalArgumentException.class,
                () -> MetadataKeyDescriptor.decodeOffset(new byte[] {'g', 0, 't'}, new byte[8]));
        assertThrows(IllegalArgumentException.class, () -> MetadataKeyDescriptor.decodeLong(new byte[7]));
        assertThrows(IllegalArgumentException.class, () -> MetadataKeyDescriptor.kvKey(""));
        assertThrows(IllegalArgumentException.class, () -> MetadataKeyDescriptor.kvKey("k".repeat(256)));
        assertEquals(255, MetadataKeyDescriptor.kvKey("k".repeat(255)).length);
    }

    @Provide
    Arbitrary<String> groups() {
        return names(TopicNames.MAX_GROUP_LENGTH);
    }

    @Provide
    Arbitrary<String> topics() {
        return names(TopicNames.MAX_TOPIC_LENGTH);
    }

    @Provide
    Arbitrary<String> shortNames() {
        return names(20);
    }

    private static Arbitrary<String> names(int maxLength) {
        return Arbitraries.strings().withChars("azAZ09%|_-").withCharRange('a', 'z').ofMinLength(1)
                .ofMaxLength(maxLength);
    }
}
