package io.sluice.remoting.protocol;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.Unpooled;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.StringLength;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link RequestSignature}'s reused, sort-in-place path against a straightforward reference of the Apache hook's
 * algorithm: a TreeMap of the fields, their values concatenated and encoded at once, the body appended, a new Mac.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class RequestSignaturePropertyTest {

    /** The reference: what {@code AclClientRPCHook} computes, written the plain way. */
    private static byte[] reference(Map<String, String> fields, byte[] body, String secret)
            throws GeneralSecurityException {
        StringBuilder text = new StringBuilder();
        new TreeMap<>(fields).forEach((name, value) -> {
            if (!name.equals(RequestSignature.SIGNATURE)) {
                text.append(value);
            }
        });
        ByteArrayOutputStream signed = new ByteArrayOutputStream();
        signed.writeBytes(text.toString().getBytes(StandardCharsets.UTF_8));
        if (body != null) {
            signed.writeBytes(body);
        }
        Mac mac = Mac.getInstance("HmacSHA1");
        mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA1"));
        return mac.doFinal(signed.toByteArray());
    }

    @Provide
    Arbitrary<Map<String, String>> fields() {
        Arbitrary<String> names = Arbitraries.oneOf(
                Arbitraries.strings().withCharRange('a', 'z').ofMinLength(1).ofMaxLength(3),
                Arbitraries.of("AccessKey", "Signature", "SecurityToken", "topic", "queueId", "bornTimestamp"),
                Arbitraries.strings().ofMinLength(1).ofMaxLength(6));
        // Values mix ASCII, other BMP chars and lone or paired surrogates (a pair may be split over two values).
        Arbitrary<String> values = Arbitraries.oneOf(
                Arbitraries.strings().ascii().ofMaxLength(40),
                Arbitraries.strings().ofMaxLength(12),
                Arbitraries.strings().withChars('\uD83D', '\uDE00', 'x', 'é').ofMaxLength(4));
        return Arbitraries.maps(names, values).ofMaxSize(40);
    }

    @Property(tries = 400)
    void theFastPathSignsAsTheReference(@ForAll("fields") Map<String, String> fields,
                                        @ForAll @StringLength(min = 1, max = 40) String secret,
                                        @ForAll long seed) throws GeneralSecurityException {
        Random random = new Random(seed);
        byte[] body = random.nextInt(4) == 0 ? null : new byte[random.nextInt(3000)];
        if (body != null) {
            random.nextBytes(body);
        }
        // The fields in a shuffled insertion order: the signature must not depend on it.
        List<Map.Entry<String, String>> entries = new ArrayList<>(fields.entrySet());
        Collections.shuffle(entries, random);
        Map<String, String> shuffled = new LinkedHashMap<>();
        entries.forEach(entry -> shuffled.put(entry.getKey(), entry.getValue()));
        RemotingCommand request = RemotingCommand.request(RequestCode.SEND_MESSAGE_V2).setExtFields(shuffled);
        if (body != null) {
            request.setBody(split(body, random));
        }
        byte[] expected = reference(fields, body, secret);
        assertArrayEquals(expected, RequestSignature.compute(request, secret));
        String text = Base64.getEncoder().encodeToString(expected);
        assertEquals(text, RequestSignature.sign(request, secret));
        assertTrue(RequestSignature.verify(request, secret, text));
        assertArrayEquals(expected, RequestSignature.compute(request, secret), "a second call on the same thread");
    }

    /** The body as up to four parts, heap or direct, some of them slices at an offset. */
    private static ByteBuffer[] split(byte[] body, Random random) {
        int parts = 1 + random.nextInt(4);
        List<ByteBuffer> buffers = new ArrayList<>();
        int from = 0;
        for (int i = 0; i < parts; i++) {
            int to = i == parts - 1 ? body.length : from + random.nextInt(body.length - from + 1);
            ByteBuffer part;
            if (random.nextBoolean()) {
                part = ByteBuffer.allocateDirect(to - from);
                part.put(body, from, to - from).flip();
            } else {
                byte[] padded = new byte[to - from + 3];
                System.arraycopy(body, from, padded, 3, to - from);
                part = ByteBuffer.wrap(padded, 3, to - from).slice();
            }
            buffers.add(part);
            from = to;
        }
        return buffers.toArray(ByteBuffer[]::new);
    }

    @Test
    void aBodyHeldByReferenceIsSignedAndLeftInPlace() throws GeneralSecurityException {
        byte[] body = "referenced body".getBytes(StandardCharsets.UTF_8);
        RemotingCommand request = RemotingCommand.request(RequestCode.SEND_MESSAGE_V2).putExtField("b", "Orders")
                .setBody(Unpooled.wrappedBuffer(body));
        assertArrayEquals(reference(Map.of("b", "Orders"), body, "k"), RequestSignature.compute(request, "k"));
        assertEquals(body.length, request.bodyBytes(), "the body is still there to send");
        request.releaseBody();
    }

    @Test
    void aSurrogatePairSplitOverTwoValuesIsEncodedAsOneCodePoint() throws GeneralSecurityException {
        Map<String, String> fields = Map.of("a", "x\uD83D", "b", "\uDE00y");
        RemotingCommand request = RemotingCommand.request(RequestCode.SEND_MESSAGE_V2).setExtFields(fields);
        assertArrayEquals(reference(fields, null, "k"), RequestSignature.compute(request, "k"));
    }

    @Test
    void theBodyPositionsDoNotMove() {
        ByteBuffer direct = ByteBuffer.allocateDirect(8);
        RemotingCommand request = RemotingCommand.request(RequestCode.SEND_MESSAGE_V2).putExtField("b", "Orders")
                .setBody(direct, ByteBuffer.wrap(new byte[5]));
        byte[] first = RequestSignature.compute(request, "k");
        assertArrayEquals(first, RequestSignature.compute(request, "k"));
        assertEquals(13, request.bodyBytes());
    }
}
