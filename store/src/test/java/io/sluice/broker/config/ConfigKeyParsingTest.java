package io.sluice.broker.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;

/**
 * How every broker key reads a text value: which values each kind of key refuses and with which reason (the reason
 * is what {@code sluice config check} and the broker's start-up print after the key's name).
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ConfigKeyParsingTest {

    @Property(tries = 300)
    void anIntKeyAcceptsExactlyItsInclusiveRange(@ForAll @IntRange(min = -1000, max = 1000) int min,
                                                 @ForAll @IntRange(min = 0, max = 2000) int width,
                                                 @ForAll @IntRange(min = -3000, max = 3000) int value) {
        int max = min + width;
        ConfigKey<Integer> key = ConfigKey.ofInt("k", min, min, max, "", "a key");
        if (value >= min && value <= max) {
            assertEquals(value, key.parse(" " + value + " "));
        } else {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> key.parse(Integer.toString(value)));
            assertEquals("out of range " + min + ".." + max, e.getMessage());
        }
    }

    @Property(tries = 200)
    void aLongKeyAcceptsExactlyItsInclusiveRange(@ForAll long a, @ForAll long b, @ForAll long value) {
        long min = Math.min(a, b);
        long max = Math.max(a, b);
        ConfigKey<Long> key = ConfigKey.ofLong("k", min, min, max, "", "a key");
        if (value >= min && value <= max) {
            assertEquals(value, key.parse(Long.toString(value)));
        } else {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> key.parse(Long.toString(value)));
            assertEquals("out of range " + min + ".." + max, e.getMessage());
        }
    }

    @Test
    void anIntKeyRefusesAValueBeyondAnIntInsteadOfWrappingIt() {
        ConfigKey<Integer> key = ConfigKey.ofInt("k", 0, 0, Integer.MAX_VALUE, "", "a key");
        assertEquals(Integer.MAX_VALUE, key.parse(Integer.toString(Integer.MAX_VALUE)));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> key.parse("4294967296"));
        assertEquals("out of range 0.." + Integer.MAX_VALUE, e.getMessage());
    }

    @Test
    void everyNumericKeyRefusesTextThatIsNoIntegerNamingWhy() {
        List<ConfigKey<?>> numeric = keysOfType("int", "long");
        for (ConfigKey<?> key : numeric) {
            for (String bad : List.of("ten", "1.5", "0x10", "5ms", "99999999999999999999")) {
                IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> key.parse(bad),
                        key.name() + "=" + bad);
                assertFalse(e.getMessage() == null || e.getMessage().isBlank(), key.name() + "=" + bad);
            }
        }
        assertTrue(numeric.size() > 40, "the numeric keys were found: " + numeric);
    }

    @Test
    void everyBooleanKeyTakesTrueOrFalseInAnyCaseAndNothingElse() {
        List<ConfigKey<?>> booleans = keysOfType("boolean");
        for (ConfigKey<?> key : booleans) {
            assertEquals(Boolean.TRUE, key.parse("TRUE"), key.name());
            assertEquals(Boolean.FALSE, key.parse(" false"), key.name());
            for (String bad : List.of("yes", "1", "on", "")) {
                IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> key.parse(bad),
                        key.name() + "=" + bad);
                assertEquals("expected true or false", e.getMessage());
            }
        }
        assertTrue(booleans.size() > 10, "the boolean keys were found: " + booleans);
    }

    @Test
    void everyEnumKeyListsItsConstantsWhenTheValueIsNoneOfThem() {
        List<ConfigKey<?>> enums = keysOfType("enum");
        for (ConfigKey<?> key : enums) {
            String defaultText = key.defaultDoc();
            assertEquals(key.defaultValue(), key.parse(defaultText), key.name());
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> key.parse(defaultText.toLowerCase(Locale.ROOT) + "_x"), key.name());
            assertTrue(e.getMessage().toLowerCase(Locale.ROOT).contains(defaultText.toLowerCase(Locale.ROOT)),
                    key.name() + " names the allowed values: " + e.getMessage());
        }
        assertTrue(enums.size() >= 4, "the enum keys were found: " + enums);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '#', quoteCharacter = '"', value = {
        "brokerName#a b#expected 1..127 characters of [%|a-zA-Z0-9_-]",
        "haListenPort#65536#expected a port in 0..65535",
        "haListenPort#-1#expected a port in 0..65535",
        "haListenPort#port#not an integer",
        "haMasterAddress#a:1;b:2#expected one host:port",
        "haMasterAddress#host#'host' is not host:port",
        "namesrvAddr#a:1;b#'b' is not host:port",
        "namesrvAddr#a:x#'a:x' has a non-numeric port",
        "namesrvAddr#a:0#'a:0' has port out of range 1..65535",
        "namesrvAddr#a:1;;b:2#'' is not host:port",
        "namesrvAddr#_bad:1#'_bad:1' is not host:port",
        "bindAddress#localhost#expected an IPv4 or IPv6 address literal (or empty for automatic)",
        "brokerIP1#300.1.1.1#expected an IPv4 or IPv6 address literal (or empty for automatic)",
        "brokerIP1#fe80::zz#expected an IPv4 or IPv6 address literal (or empty for automatic)",
        "mappedFileSizeConsumeQueue#30#must be a positive multiple of 20",
        "mappedFileSizeConsumeQueue#0#must be a positive multiple of 20",
        "mapperFileSizeBatchConsumeQueue#460001#must be a positive multiple of 46",
        "storePathCommitLog#/a,/b#multiple CommitLog paths are not supported",
        "deleteWhen#4;24#'24' is not an hour 00..23",
        "deleteWhen#4;#'' is not an hour 00..23",
        "deleteWhen#four#'four' is not an hour 00..23",
        "deleteWhen#004#'004' is not an hour 00..23",
        "messageDelayLevel#1s 5#'5' is not a duration like 5s, 2m, 1h or 1d",
        "messageDelayLevel#1s 5w#'5w' has no unit s, m, h or d",
        "messageDelayLevel#1s xs#'xs' is not a duration like 5s, 2m, 1h or 1d",
        "messageDelayLevel#0s#'0s' is out of range 1..365 units",
        "messageDelayLevel#366d#'366d' is out of range 1..365 units"})
    void aMalformedValueIsRefusedWithItsReason(String name, String value, String reason) {
        ConfigKey<?> key = BrokerConfigKeys.find(name).orElseThrow();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> key.parse(value));
        assertEquals(reason, e.getMessage());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "bindAddress|''|0.0.0.0",
        "bindAddress|10.1.2.3|10.1.2.3",
        "bindAddress|::1|::1",
        "brokerIP1|''|''",
        "brokerIP1|fe80::1|fe80::1",
        "haMasterAddress|''|''",
        "haMasterAddress| host-1.example:10912 |host-1.example:10912"})
    void anAcceptedAddressIsKeptAsWritten(String name, String value, String expected) {
        assertEquals(expected, BrokerConfigKeys.find(name).orElseThrow().parse(value));
    }

    @Test
    void credentialsMustNameBothHalves() {
        ConfigKey<?> inner = credentialsKey("accessKey");
        assertEquals("", inner.parse(""));
        IllegalArgumentException missing = assertThrows(IllegalArgumentException.class,
                () -> inner.parse("{\"accessKey\":\"a\"}"));
        assertTrue(missing.getMessage().endsWith("with both set"), missing.getMessage());
        IllegalArgumentException blank = assertThrows(IllegalArgumentException.class,
                () -> inner.parse("{\"accessKey\":\"a\",\"secretKey\":\" \"}"));
        assertTrue(blank.getMessage().endsWith("with both set"), blank.getMessage());
        IllegalArgumentException notJson = assertThrows(IllegalArgumentException.class, () -> inner.parse("a:b"));
        assertTrue(notJson.getMessage().startsWith("expected {\"accessKey\""), notJson.getMessage());
        String good = "{\"accessKey\":\"a\",\"secretKey\":\"s\"}";
        assertEquals(good, inner.parse(good));
    }

    private static List<ConfigKey<?>> keysOfType(String... typeNames) {
        List<String> wanted = List.of(typeNames);
        return BrokerConfigKeys.all().stream().filter(k -> wanted.contains(k.typeName())).toList();
    }

    /** The one key whose documented JSON form names {@code field}. */
    private static ConfigKey<?> credentialsKey(String field) {
        List<ConfigKey<?>> found = new ArrayList<>();
        for (ConfigKey<?> key : BrokerConfigKeys.all()) {
            try {
                key.parse("{\"" + field + "\":\"x\"}");
            } catch (IllegalArgumentException e) {
                if (e.getMessage() != null && e.getMessage().startsWith("expected {\"" + field + "\"")) {
                    found.add(key);
                }
            }
        }
        assertEquals(1, found.size(), "keys taking {\"" + field + "\":...}: " + found);
        return found.get(0);
    }

    @Property(tries = 200)
    void hourListsReadBackSortedAndWithoutRepeats(@ForAll @Size(min = 1, max = 8) List<@IntRange(max = 23) Integer>
                                                          hours) {
        ConfigKey<?> key = BrokerConfigKeys.find("deleteWhen").orElseThrow();
        StringBuilder text = new StringBuilder();
        for (int h : hours) {
            text.append(text.length() == 0 ? "" : " ; ").append(h);
        }
        List<Integer> expected = hours.stream().distinct().sorted().toList();
        assertEquals(expected, key.parse(text.toString()));
        assertEquals(expected, reparse(key, text.toString()));
    }

    @Property(tries = 200)
    void delayLevelsReadBackThroughTheirPrintedForm(@ForAll("delayLevels") String text) {
        ConfigKey<?> key = BrokerConfigKeys.find("messageDelayLevel").orElseThrow();
        Object levels = key.parse(text);
        assertEquals(levels, reparse(key, text));
        assertEquals(text.split(" ").length, ((List<?>) levels).size());
    }

    @Provide
    Arbitrary<String> delayLevels() {
        Arbitrary<String> level = Arbitraries.integers().between(1, 365)
                .flatMap(n -> Arbitraries.of("s", "m", "h", "d").map(unit -> n + unit));
        return level.list().ofMinSize(1).ofMaxSize(20).map(list -> String.join(" ", list));
    }

    @Property(tries = 200)
    void addressListsKeepTheirOrder(@ForAll("addresses") List<String> addresses) {
        ConfigKey<?> key = BrokerConfigKeys.find("namesrvAddr").orElseThrow();
        assertEquals(addresses, key.parse(String.join(";", addresses)));
    }

    @Provide
    Arbitrary<List<String>> addresses() {
        Arbitrary<String> host = Arbitraries.strings().withCharRange('a', 'z').ofMinLength(1).ofMaxLength(12);
        Arbitrary<Integer> port = Arbitraries.integers().between(1, 65535);
        return host.flatMap(h -> port.map(p -> h + ":" + p)).list().ofMinSize(1).ofMaxSize(5);
    }

    /** Parses {@code text}, prints the value and parses the print: what a saved effective config reads back as. */
    private static <T> T reparse(ConfigKey<T> key, String text) {
        return key.parse(key.format(key.parse(text)));
    }
}
