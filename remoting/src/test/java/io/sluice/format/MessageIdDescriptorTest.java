package io.sluice.format;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import net.jqwik.api.constraints.Size;
import org.apache.rocketmq.common.message.MessageDecoder;
import org.apache.rocketmq.common.message.MessageId;
import org.junit.jupiter.api.Test;

class MessageIdDescriptorTest {

    @Test
    void shouldMatchTheWireSpecExample() {
        InetSocketAddress host = new InetSocketAddress(InetAddress.getLoopbackAddress(), 10911);
        assertEquals("7F00000100002A9F00000000000009CF", MessageIdDescriptor.offsetMsgId(host, 2511));
        MessageIdDescriptor.OffsetMsgId decoded = MessageIdDescriptor.decode("7F00000100002A9F00000000000009CF");
        assertEquals(host, decoded.storeHost());
        assertEquals(2511, decoded.position());
    }

    @Property(tries = 200)
    void roundTripsAndMatchesApache(@ForAll @Size(value = 4) byte[] v4, @ForAll @Size(value = 16) byte[] v6,
                                    @ForAll boolean useV6, @ForAll @IntRange(min = 0, max = 65535) int port,
                                    @ForAll @LongRange(min = 0) long position) throws UnknownHostException {
        InetSocketAddress host = new InetSocketAddress(InetAddress.getByAddress(useV6 ? v6 : v4), port);
        String id = MessageIdDescriptor.offsetMsgId(host, position);
        assertEquals(host.getAddress().getAddress().length == 16 ? 56 : 32, id.length());
        assertEquals(MessageDecoder.createMessageId(host, position), id);
        MessageIdDescriptor.OffsetMsgId decoded = MessageIdDescriptor.decode(id);
        assertEquals(host, decoded.storeHost());
        assertEquals(position, decoded.position());
        MessageId apache = MessageDecoder.decodeMessageId(id);
        assertEquals(position, apache.getOffset());
    }

    @Test
    void shouldNameABadId() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> MessageIdDescriptor.decode("ABC"));
        assertTrue(e.getMessage().contains("'ABC'"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
                () -> MessageIdDescriptor.decode("7F00000100002A9F00000000000009CZ"));
        assertTrue(e.getMessage().contains("character 31"), e.getMessage());
    }
}
