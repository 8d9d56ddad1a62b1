package io.sluice.client.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

/**
 * The producer's UTF-8 writer agrees with the JDK's encoder for every string (ASCII, accented, CJK, emoji, lone
 * surrogates): the same length and the same bytes at any offset, touching nothing outside its range.
 */
class Utf8PropertyTest {

    @Property(tries = 500)
    void lengthAndBytesAreTheJdksAtAnyOffset(@ForAll("texts") String text, @ForAll @IntRange(max = 7) int at) {
        byte[] expected = text.getBytes(StandardCharsets.UTF_8);
        assertEquals(expected.length, Utf8.length(text), text);
        byte[] out = new byte[at + expected.length + 3];
        Arrays.fill(out, (byte) 0x5A);
        assertEquals(at + expected.length, Utf8.write(text, out, at));
        assertArrayEquals(expected, Arrays.copyOfRange(out, at, at + expected.length), text);
        for (int i = 0; i < at; i++) {
            assertEquals(0x5A, out[i], "byte " + i + " before the range");
        }
        for (int i = at + expected.length; i < out.length; i++) {
            assertEquals(0x5A, out[i], "byte " + i + " after the range");
        }
    }

    @Provide
    Arbitrary<String> texts() {
        Arbitrary<String> ascii = Arbitraries.strings().ascii().ofMaxLength(40);
        Arbitrary<String> mixed = Arbitraries.strings().withChars("aZ09 %|:éñ中文\u00ff\u0080\u07ff\u0800")
                .ofMaxLength(30);
        Arbitrary<String> any = Arbitraries.strings().all().ofMaxLength(20);
        Arbitrary<String> emoji = Arbitraries.of("😀", "a😀b", "\uD83D", "x\uDE00y", "\uDE00\uD83D");
        return Arbitraries.oneOf(ascii, mixed, any, emoji);
    }
}
