package io.sluice.format;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageAccessor;
import org.apache.rocketmq.common.message.MessageDecoder;
import org.junit.jupiter.api.Test;

class BatchBodyDescriptorTest {

    @Provide
    Arbitrary<List<BatchBodyDescriptor.Message>> batches() {
        Arbitrary<BatchBodyDescriptor.Message> message = Combinators.combine(
                Arbitraries.integers(),
                Arbitraries.bytes().array(byte[].class).ofMaxSize(300),
                Arbitraries.strings().alpha().numeric().ofMaxLength(20)
                        .map(v -> v.isEmpty() ? "" : "UNIQ_KEY\u0001" + v + "\u0002"))
                .as(BatchBodyDescriptor.Message::new);
        return message.list().ofMinSize(1).ofMaxSize(20);
    }

    @Property(tries = 150)
    void encodeThenIterateGivesTheSameMessages(@ForAll("batches") List<BatchBodyDescriptor.Message> messages) {
        ByteBuffer body = ByteBuffer.wrap(BatchBodyDescriptor.encode(messages));
        assertEquals(messages.size(), BatchBodyDescriptor.count(body));
        Iterator<BatchBodyDescriptor.Entry> it = BatchBodyDescriptor.entries(body);
        for (BatchBodyDescriptor.Message m : messages) {
            BatchBodyDescriptor.Entry e = it.next();
            assertEquals(m.flag(), e.flag());
            assertArrayEquals(m.body(), e.body(body));
            assertEquals(m.properties(), e.properties(body));
        }
        assertEquals(false, it.hasNext());
        assertEquals(0, body.position(), "the buffer is not moved");
    }

    @Property(tries = 150)
    void encodingMatchesTheApacheClient(@ForAll("batches") List<BatchBodyDescriptor.Message> messages) {
        List<Message> apache = new ArrayList<>();
        for (BatchBodyDescriptor.Message m : messages) {
            Message a = new Message("T", m.body());
            a.setFlag(m.flag());
            MessageAccessor.clearProperty(a, "WAIT"); // the Apache constructor adds WAIT=true
            MessageProperties.parse(m.properties()).forEach((k, v) -> MessageAccessor.putProperty(a, k, v));
            apache.add(a);
        }
        byte[] expected = MessageDecoder.encodeMessages(apache);
        assertArrayEquals(expected, BatchBodyDescriptor.encode(messages));
    }

    @Property(tries = 200)
    void arbitraryBytesEitherParseOrFailNamingTheProblem(
            @ForAll("batches") List<BatchBodyDescriptor.Message> messages,
            @ForAll @IntRange(min = 0, max = 10_000) int corruptAt, @ForAll byte value) {
        byte[] bytes = BatchBodyDescriptor.encode(messages);
        bytes[corruptAt % bytes.length] = value;
        try {
            int n = BatchBodyDescriptor.count(ByteBuffer.wrap(bytes));
            assertTrue(n >= 1);
        } catch (MalformedBatchException e) {
            assertTrue(e.getMessage().startsWith("batch entry #"), e.getMessage());
        }
    }

    @Property(tries = 200)
    void countAgreesWithTheIterator(@ForAll("batches") List<BatchBodyDescriptor.Message> messages,
                                    @ForAll @IntRange(min = 0, max = 10_000) int corruptAt, @ForAll byte value) {
        byte[] bytes = BatchBodyDescriptor.encode(messages);
        bytes[corruptAt % bytes.length] = value;
        String iterated;
        try {
            int n = 0;
            for (Iterator<BatchBodyDescriptor.Entry> it = BatchBodyDescriptor.entries(ByteBuffer.wrap(bytes));
                 it.hasNext(); it.next()) {
                n++;
            }
            iterated = "count " + n;
        } catch (MalformedBatchException e) {
            iterated = e.getMessage();
        }
        String counted;
        try {
            counted = "count " + BatchBodyDescriptor.count(ByteBuffer.wrap(bytes));
        } catch (MalformedBatchException e) {
            counted = e.getMessage();
        }
        assertEquals(iterated, counted);
    }

    @Test
    void countReadsBigEndianWhateverTheBufferOrder() {
        byte[] bytes = BatchBodyDescriptor.encode(List.of(new BatchBodyDescriptor.Message(0, new byte[300], "A\u00011\u0002"),
                new BatchBodyDescriptor.Message(0, new byte[7], "")));
        ByteBuffer direct = ByteBuffer.allocateDirect(bytes.length + 3).order(ByteOrder.LITTLE_ENDIAN);
        direct.position(3);
        direct.put(bytes).position(3);
        assertEquals(2, BatchBodyDescriptor.count(direct));
        assertEquals(3, direct.position(), "the buffer is not moved");
    }

    @Test
    void shouldNameTheBadTotalSize() {
        ByteBuffer body = ByteBuffer.wrap(BatchBodyDescriptor.encode(
                List.of(new BatchBodyDescriptor.Message(0, new byte[5], "A\u00011\u0002"))));
        body.putInt(0, 99_999);
        MalformedBatchException e = assertThrows(MalformedBatchException.class, () -> BatchBodyDescriptor.count(body));
        assertTrue(e.getMessage().contains("TOTALSIZE 99999"), e.getMessage());
    }

    @Test
    void shouldNameTheBadBodyLength() {
        ByteBuffer body = ByteBuffer.wrap(BatchBodyDescriptor.encode(
                List.of(new BatchBodyDescriptor.Message(0, new byte[5], ""),
                        new BatchBodyDescriptor.Message(0, new byte[5], ""))));
        body.putInt(27 + BatchBodyDescriptor.BODY_LENGTH_OFFSET, -3);
        MalformedBatchException e = assertThrows(MalformedBatchException.class, () -> BatchBodyDescriptor.count(body));
        assertTrue(e.getMessage().contains("batch entry #1 at byte 27: BODYLENGTH -3"), e.getMessage());
    }

    @Test
    void shouldRejectATruncatedBodyAndAnEmptyOne() {
        byte[] full = BatchBodyDescriptor.encode(List.of(new BatchBodyDescriptor.Message(0, new byte[10], "")));
        ByteBuffer truncated = ByteBuffer.wrap(full, 0, full.length - 1);
        assertThrows(MalformedBatchException.class, () -> BatchBodyDescriptor.count(truncated));
        assertThrows(MalformedBatchException.class, () -> BatchBodyDescriptor.count(ByteBuffer.allocate(0)));
    }

    @Test
    void shouldDecodeTheExampleFromTheWireSpec() {
        byte[] example = java.util.HexFormat.of().parseHex("0000002c000000000000000000000000000000"
                + "0568656c6c6f00114b455953016b3102574149540174727565");
        ByteBuffer body = ByteBuffer.wrap(example);
        BatchBodyDescriptor.Entry e = BatchBodyDescriptor.entries(body).next();
        assertEquals(44, e.totalSize());
        assertEquals("hello", new String(e.body(body), java.nio.charset.StandardCharsets.US_ASCII));
        assertEquals("KEYS\u0001k1\u0002WAIT\u0001true", e.properties(body));
    }

    @Test
    void firstPropertyOfEntriesFindsANameInAnyEntryAndStopsAtAMalformedOne() {
        MessageProperties.NameSet names = MessageProperties.NameSet.of("TIMER_DELAY_SEC", "TRAN_MSG");
        byte[] plain = BatchBodyDescriptor.encode(List.of(
                new BatchBodyDescriptor.Message(0, new byte[] {1}, "TAGS\u0001a\u0002"),
                new BatchBodyDescriptor.Message(0, new byte[] {2}, "KEYS\u0001TRAN_MSG\u0002")));
        assertTrue(BatchBodyDescriptor.firstPropertyOfEntries(ByteBuffer.wrap(plain), names).isEmpty(),
                "a value equal to a name is no match");
        byte[] timed = BatchBodyDescriptor.encode(List.of(
                new BatchBodyDescriptor.Message(0, new byte[] {1}, "TAGS\u0001a\u0002"),
                new BatchBodyDescriptor.Message(0, new byte[] {2}, "TAGS\u0001b\u0002TIMER_DELAY_SEC\u00015\u0002")));
        assertEquals("TIMER_DELAY_SEC",
                BatchBodyDescriptor.firstPropertyOfEntries(ByteBuffer.wrap(timed), names).orElseThrow());
        ByteBuffer broken = ByteBuffer.wrap(timed);
        broken.putInt(0, 5); // the first entry's TOTALSIZE is impossible: nothing after it is read
        assertTrue(BatchBodyDescriptor.firstPropertyOfEntries(broken, names).isEmpty());
    }
}
