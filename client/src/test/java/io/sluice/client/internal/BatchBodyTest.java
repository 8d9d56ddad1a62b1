package io.sluice.client.internal;

import io.sluice.format.BatchBodyDescriptor;
import io.sluice.format.MessageProperties;
import io.sluice.format.UniqKeyGenerator;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.sluice.client.Message;
import java.nio.ByteBuffer;
import java.time.ZoneId;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** A batch body built in place decodes to the messages written into it, whatever room it started with. */
class BatchBodyTest {
    private static final UniqKeyGenerator KEYS = new UniqKeyGenerator(new byte[] {10, 1, 2, 3}, 77, 5,
            () -> 1_700_000_000_000L, ZoneId.of("UTC"));

    /** Counts the direct memory its buffers hold, so a test can see them freed; one per test. */
    private final UnpooledByteBufAllocator allocator = new UnpooledByteBufAllocator(true);

    @Property(tries = 200)
    void shouldDecodeToTheMessagesAppendedWhateverTheStartingRoom(
            @ForAll("messages") @Size(min = 1, max = 40) List<Message> messages,
            @ForAll @IntRange(min = 1, max = 4096) int capacityBytes,
            @ForAll @IntRange(min = 1, max = 50) int capacityMessages) {
        BatchBody body = BatchBody.allocate(allocator, capacityBytes, capacityMessages, 1 << 20);
        int expectedBytes = 0;
        for (Message message : messages) {
            int propertiesBytes = BatchEntryWriter.propertiesBytes(message, KEYS.keyChars());
            body.append(message, propertiesBytes, KEYS);
            expectedBytes += BatchEntryWriter.entryBytes(message, propertiesBytes);
        }
        assertEquals(expectedBytes, body.sizeBytes());
        assertEquals(messages.size(), body.count());
        List<BatchBodyDescriptor.Message> entries =
                BatchBodyDescriptor.decode(ByteBuffer.wrap(bytesOf(body)));
        assertEquals(messages.size(), entries.size());
        for (int i = 0; i < messages.size(); i++) {
            Message message = messages.get(i);
            BatchBodyDescriptor.Message entry = entries.get(i);
            assertArrayEquals(message.body(), entry.body());
            assertEquals(message.flag(), entry.flag());
            Map<String, String> properties = MessageProperties.parse(entry.properties());
            assertEquals(body.uniqKeys().get(i), properties.get(MessageProperties.UNIQ_KEY));
            assertEquals(message.tags(), properties.get(MessageProperties.TAGS));
        }
        assertEquals(messages.size(), new HashSet<>(body.uniqKeys()).size(), "every message has its own key");
        body.release();
    }

    @Test
    @Timeout(10)
    void shouldRefuseAnEntryPastTheLimitAndStayAsItWas() {
        Message small = Message.of("T", new byte[10]);
        int smallProperties = BatchEntryWriter.propertiesBytes(small, KEYS.keyChars());
        int smallBytes = BatchEntryWriter.entryBytes(small, smallProperties);
        BatchBody body = BatchBody.allocate(allocator, 8, 1, smallBytes + 100);
        body.append(small, smallProperties, KEYS);
        byte[] before = bytesOf(body);
        Message big = Message.of("T", new byte[101]);
        IllegalArgumentException error = assertThrows(IllegalArgumentException.class,
                () -> body.append(big, BatchEntryWriter.propertiesBytes(big, KEYS.keyChars()), KEYS));
        assertTrue(error.getMessage().contains("(at most " + (smallBytes + 100) + ")"), error.getMessage());
        assertEquals(smallBytes, body.sizeBytes());
        assertEquals(1, body.count());
        assertArrayEquals(before, bytesOf(body));
        body.release();
        assertEquals(0, allocator.metric().usedDirectMemory());
    }

    @Test
    @Timeout(10)
    void shouldKeepItsBytesForARequestThatHoldsThemAfterTheBodyIsReleased() {
        Message message = Message.of("T", new byte[] {7, 8, 9});
        BatchBody body = BatchBody.allocate(allocator, 64, 1, 1 << 20);
        body.append(message, BatchEntryWriter.propertiesBytes(message, KEYS.keyChars()), KEYS);
        byte[] written = bytesOf(body);
        ByteBuf held = body.retainedBytes();
        body.release();
        assertEquals(1, held.refCnt(), "the request's own reference");
        assertArrayEquals(written, ByteBufUtil.getBytes(held));
        held.release();
        assertEquals(0, allocator.metric().usedDirectMemory(), "freed once the last holder lets go");
    }

    @Test
    @Timeout(10)
    void shouldRefuseAWrongPropertiesSizeWithoutCountingTheMessage() {
        Message message = Message.builder("T", new byte[] {1, 2, 3}).tags("a-tag").build();
        int propertiesBytes = BatchEntryWriter.propertiesBytes(message, KEYS.keyChars());
        BatchBody body = BatchBody.allocate(allocator, 1024, 4, 1 << 20);
        IllegalStateException error = assertThrows(IllegalStateException.class,
                () -> body.append(message, propertiesBytes + 1, KEYS));
        assertTrue(error.getMessage().contains("propertiesBytes " + (propertiesBytes + 1)), error.getMessage());
        assertEquals(0, body.count());
        assertEquals(0, body.sizeBytes());
        body.release();
    }

    /** The body's bytes, through a reference of their own that is given back at once. */
    private static byte[] bytesOf(BatchBody body) {
        ByteBuf bytes = body.retainedBytes();
        try {
            return ByteBufUtil.getBytes(bytes);
        } finally {
            bytes.release();
        }
    }

    @Provide
    Arbitrary<List<Message>> messages() {
        Arbitrary<byte[]> bodies = Arbitraries.bytes().array(byte[].class).ofMinSize(1).ofMaxSize(600);
        Arbitrary<String> tags = Arbitraries.strings().alpha().ofMinLength(1).ofMaxLength(12).injectNull(0.4);
        Arbitrary<Integer> flags = Arbitraries.integers();
        return Combinators.combine(bodies, tags, flags)
                .as((body, tag, flag) -> Message.builder("T", body).tags(tag).flag(flag).build())
                .list();
    }
}
