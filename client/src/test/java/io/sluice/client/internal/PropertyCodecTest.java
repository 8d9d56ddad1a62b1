package io.sluice.client.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.sluice.format.MessageProperties;
import java.util.LinkedHashMap;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

class PropertyCodecTest {

    @Test
    void shouldDropEmptyNamesAndValuesAndLetLaterDuplicatesWin() {
        Map<String, String> parsed = PropertyCodec.parse("KEYS\u0001\u0002A\u0001x\u0002\u0001v\u0002A\u0001y");
        assertEquals(Map.of("A", "y"), parsed);
    }

    @Test
    void shouldAcceptBothTrailingSeparatorForms() {
        assertEquals(PropertyCodec.parse("A\u00011\u0002B\u00012"), PropertyCodec.parse("A\u00011\u0002B\u00012\u0002"));
    }

    @Test
    void shouldRejectReservedAndMalformedUserProperties() {
        IllegalArgumentException reserved = assertThrows(IllegalArgumentException.class,
                () -> PropertyCodec.validateUserProperty("UNIQ_KEY", "x"));
        assertEquals("property name 'UNIQ_KEY' is reserved for the client or broker", reserved.getMessage());
        assertThrows(IllegalArgumentException.class, () -> PropertyCodec.validateUserProperty("a\u0001", "x"));
        assertThrows(IllegalArgumentException.class, () -> PropertyCodec.validateUserProperty("a", ""));
    }

    @Property(tries = 200)
    void shouldRoundTripAndAgreeWithTheStoreParser(@ForAll("properties") Map<String, String> properties) {
        String encoded = PropertyCodec.encode(properties);
        assertEquals(properties, PropertyCodec.parse(encoded));
        assertEquals(MessageProperties.parse(encoded), PropertyCodec.parse(encoded));
    }

    @Property(tries = 200)
    void shouldParseArbitraryTextLikeTheStoreParser(@ForAll("rawText") String text) {
        assertEquals(MessageProperties.parse(text), PropertyCodec.parse(text));
    }

    @Provide
    Arbitrary<Map<String, String>> properties() {
        Arbitrary<String> names = Arbitraries.strings().withCharRange('A', 'Z').ofMinLength(1).ofMaxLength(8);
        Arbitrary<String> values = Arbitraries.strings().withCharRange(' ', '~').withChars('é', '中')
                .ofMinLength(1).ofMaxLength(12);
        return Arbitraries.maps(names, values).ofMaxSize(6).map(LinkedHashMap::new);
    }

    @Provide
    Arbitrary<String> rawText() {
        return Arbitraries.strings().withChars('a', 'b', '\u0001', '\u0002', '=').ofMaxLength(20);
    }
}
