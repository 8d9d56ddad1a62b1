package io.sluice.client.internal;

import io.sluice.client.Message;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;

/** Client messages for property tests: bodies, tags, keys, flags, the wait flag and user properties, mixed. */
final class MessageArbitraries {

    private MessageArbitraries() {
    }

    /** Property values: printable ASCII with two non-ASCII characters. */
    static Arbitrary<String> values() {
        return Arbitraries.strings().withCharRange('0', 'z').withChars('é', '中').ofMinLength(1).ofMaxLength(10);
    }

    /** One to eight messages to {@code topic}. */
    static Arbitrary<List<Message>> messages(String topic) {
        Arbitrary<byte[]> bodies = Arbitraries.bytes().array(byte[].class).ofMinSize(1).ofMaxSize(300);
        Arbitrary<String> tags = Arbitraries.strings().alpha().ofMinLength(1).ofMaxLength(6).injectNull(0.4);
        Arbitrary<String> keys = Arbitraries.strings().withChars('k', '1', '中').ofMinLength(1).ofMaxLength(5)
                .injectNull(0.5);
        Arbitrary<Integer> flags = Arbitraries.integers().between(-5, 1000);
        Arbitrary<Boolean> waits = Arbitraries.of(true, false);
        Arbitrary<Map<String, String>> properties = Arbitraries.maps(
                Arbitraries.strings().withCharRange('a', 'z').ofMinLength(1).ofMaxLength(5), values()).ofMaxSize(3);
        Arbitrary<Message> message = Combinators.combine(bodies, tags, keys, flags, waits, properties)
                .as((body, tag, key, flag, wait, props) -> {
                    Message.Builder builder = Message.builder(topic, body).tags(tag).keys(key).flag(flag)
                            .waitStoreMsgOk(wait);
                    props.forEach(builder::property);
                    return builder.build();
                });
        return message.list().ofMinSize(1).ofMaxSize(8);
    }
}
