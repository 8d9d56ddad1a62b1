package io.sluice.store.log;

import io.sluice.format.MessageProperties;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import net.jqwik.api.Assume;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.CharRange;
import net.jqwik.api.constraints.NotEmpty;
import net.jqwik.api.constraints.Size;
import net.jqwik.api.constraints.StringLength;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The parser's tags code and topic, computed from the bytes (ASCII fast path, topic cache), are exactly
 * {@code TAGS.hashCode()} and the topic string, for any tags text and with or without a {@link TopicCache}.
 */
class RecordParserTagsPropertyTest {

    @Property(tries = 100)
    void tagsCodeIsTheTagsStringHashAndTheTopicIsDecodedOnce(
            @ForAll @NotEmpty @StringLength(max = 40) String tags,
            @ForAll @Size(min = 1, max = 6) List<@CharRange(from = 'a', to = 'd') @StringLength(min = 1, max = 3)
                    String> topics) throws IOException {
        // Property values cannot hold the separators (encode refuses them, naming the value).
        Assume.that(tags.indexOf(MessageProperties.NAME_VALUE_SEPARATOR) < 0
                && tags.indexOf(MessageProperties.PROPERTY_SEPARATOR) < 0);
        Path dir = Files.createTempDirectory("tags");
        try (CommitLog log = LogFixture.openRecovered(dir)) {
            TopicCache cache = new TopicCache();
            String properties = MessageProperties.encode(Map.of(MessageProperties.TAGS, tags));
            for (String topic : topics) {
                AppendResult r = LogFixture.appendOk(log, LogFixture.draft(topic, 0, new byte[] {1}, properties));
                UnsafeBuffer view = new UnsafeBuffer(ByteBuffer.wrap(
                        LogFixture.bytes(log.readRecord(r.position(), r.wroteBytes()).buffer())));
                int size = view.capacity();
                ScanResult plain = RecordParser.parse(view, 0, size, size, r.position(), true, null);
                ScanResult cached = RecordParser.parse(view, 0, size, size, r.position(), true, cache);
                assertEquals(ScanStatus.VALID, plain.status(), plain.reason());
                assertEquals(tags.hashCode(), (int) plain.entry().tagsCode(), tags);
                assertEquals(plain.entry(), cached.entry());
                assertEquals(topic, cached.entry().topic());
                assertSame(cached.entry().topic(),
                        RecordParser.parse(view, 0, size, size, r.position(), true, cache).entry().topic(),
                        "decoded once, then from the cache");
            }
        } finally {
            try (Stream<Path> walk = Files.walk(dir)) {
                for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                    Files.delete(p);
                }
            }
        }
    }
}
