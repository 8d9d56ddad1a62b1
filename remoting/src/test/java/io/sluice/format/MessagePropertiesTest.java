package io.sluice.format;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.From;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.agrona.concurrent.UnsafeBuffer;
import org.apache.rocketmq.common.message.MessageDecoder;
import org.junit.jupiter.api.Test;

class MessagePropertiesTest {

    @Provide
    Arbitrary<Map<String, String>> properties() {
        Arbitrary<String> names = Arbitraries.strings().withChars("ABCDEFGHIJKLMNOPQRSTUVWXYZ_#.")
                .ofMinLength(1).ofMaxLength(12);
        Arbitrary<String> values = Arbitraries.strings().all().excludeChars('\u0002').ofMinLength(1).ofMaxLength(20);
        return Arbitraries.maps(names, values).ofMaxSize(8).map(LinkedHashMap::new);
    }

    @Provide
    Arbitrary<String> separatorHeavyText() {
        return Arbitraries.strings().withChars('a', 'b', 'K', '\u0001', '\u0002', ' ', 'é').ofMaxLength(40);
    }

    @Property(tries = 200)
    void encodeThenParseGivesTheSameMap(@ForAll("properties") Map<String, String> map) {
        assertEquals(map, MessageProperties.parse(MessageProperties.encode(map)));
    }

    @Property(tries = 200)
    void encodingMatchesApache(@ForAll("properties") Map<String, String> map) {
        assertEquals(MessageDecoder.messageProperties2String(map), MessageProperties.encode(map));
    }

    @Property(tries = 200)
    void parsingAnyTextMatchesApache(@ForAll("separatorHeavyText") String text) {
        assertEquals(MessageDecoder.string2messageProperties(text), MessageProperties.parse(text));
    }

    @Property(tries = 200)
    void findAgreesWithParse(@ForAll("separatorHeavyText") String text) {
        Map<String, String> parsed = MessageProperties.parse(text);
        for (String name : new String[] {"a", "b", "K", "ab", "Kb"}) {
            assertEquals(parsed.get(name), MessageProperties.find(text, name), () -> "name " + name);
            byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
            long found = MessageProperties.findValue(new UnsafeBuffer(bytes), 0, bytes.length,
                    MessageProperties.nameBytes(name));
            String viaBytes = found == MessageProperties.NOT_FOUND ? null : new String(bytes,
                    MessageProperties.valueIndex(found), MessageProperties.valueLength(found), StandardCharsets.UTF_8);
            assertEquals(parsed.get(name), viaBytes, () -> "byte lookup of " + name);
            for (String value : new String[] {"1", "x", "12"}) {
                assertEquals(value.equals(parsed.get(name)), MessageProperties.hasValue(text, name, value),
                        () -> "hasValue " + name + "=" + value);
            }
        }
    }

    /**
     * The word-at-a-time lookup against the byte-at-a-time one, with the properties at any offset inside a larger
     * buffer whose other bytes are separators and letters: it must read only its range, at any alignment.
     */
    @Property(tries = 300)
    void findValueAgreesWithTheBytewiseLookupAtAnyOffset(@ForAll("separatorHeavyText") String text,
                                                         @ForAll @IntRange(max = 17) int before,
                                                         @ForAll @IntRange(max = 17) int after) {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        byte[] padded = new byte[before + bytes.length + after];
        for (int i = 0; i < padded.length; i++) {
            padded[i] = (byte) "\u0001\u0002Kab".charAt(i % 5);
        }
        System.arraycopy(bytes, 0, padded, before, bytes.length);
        UnsafeBuffer buffer = new UnsafeBuffer(padded);
        for (String name : new String[] {"a", "b", "K", "ab", "Kb", "TAGS", "a\u0001", "\u0001"}) {
            byte[] nameBytes = MessageProperties.nameBytes(name);
            assertEquals(MessageProperties.findValueBytewise(buffer, before, bytes.length, nameBytes),
                    MessageProperties.findValue(buffer, before, bytes.length, nameBytes), () -> "name " + name);
        }
    }

    /** The one-pass lookup of several names against one lookup per name, for names with and without separators. */
    @Property(tries = 300)
    void findValuesAgreesWithOneLookupPerName(@ForAll("separatorHeavyText") String text,
                                              @ForAll @Size(max = 4) List<@From("names") String> names) {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        UnsafeBuffer buffer = new UnsafeBuffer(bytes);
        byte[][] nameBytes = names.stream().map(MessageProperties::nameBytes).toArray(byte[][]::new);
        long[] found = new long[nameBytes.length];
        Arrays.fill(found, 42);
        MessageProperties.findValues(buffer, 0, bytes.length, new MessageProperties.NameSet(nameBytes), found);
        for (int k = 0; k < nameBytes.length; k++) {
            assertEquals(MessageProperties.findValueBytewise(buffer, 0, bytes.length, nameBytes[k]), found[k],
                    "name " + names.get(k) + " of " + names);
        }
    }

    @Provide
    Arbitrary<String> names() {
        return Arbitraries.of("a", "b", "K", "ab", "Kb", "ba", "TAGS", "a\u0001", "\u0001");
    }

    @Test
    void shouldDropEmptyValuesAndAcceptAMissingTrailingSeparator() {
        Map<String, String> parsed = MessageProperties.parse("KEYS\u0001\u0002UNIQ_KEY\u0001ABC\u0002WAIT\u0001true");
        assertEquals(Map.of("UNIQ_KEY", "ABC", "WAIT", "true"), parsed);
        assertNull(MessageProperties.find("KEYS\u0001\u0002", "KEYS"));
    }

    @Test
    void shouldLetTheLastDuplicateWin() {
        assertEquals("2", MessageProperties.find("A\u00011\u0002A\u00012\u0002", "A"));
        assertEquals("2", MessageProperties.parse("A\u00011\u0002A\u00012").get("A"));
    }

    @Test
    void shouldAppendAfterTerminatingTheLastPair() {
        assertEquals("A\u00011\u0002B\u00012\u0002", MessageProperties.append("A\u00011", "B", "2"));
        assertEquals("A\u00011\u0002B\u00012\u0002", MessageProperties.append("A\u00011\u0002", "B", "2"));
        assertEquals("B\u00012\u0002", MessageProperties.append("", "B", "2"));
    }

    @Test
    void shouldRejectSeparatorsInNamesAndValuesNamingThePair() {
        Map<String, String> badName = new LinkedHashMap<>();
        badName.put("A\u0001B", "v");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> MessageProperties.encode(badName));
        assertTrue(e.getMessage().contains("A\u0001B"));
        Map<String, String> badValue = Map.of("KEY", "x\u0002y");
        e = assertThrows(IllegalArgumentException.class, () -> MessageProperties.encode(badValue));
        assertTrue(e.getMessage().contains("KEY"));
    }
}
