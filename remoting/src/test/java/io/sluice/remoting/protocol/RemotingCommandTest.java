package io.sluice.remoting.protocol;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.List;
import org.junit.jupiter.api.Test;

class RemotingCommandTest {

    @Test
    void typedAccessorsParseLikeApacheAndNameBadFields() {
        RemotingCommand command = RemotingCommand.request(RequestCode.PULL_MESSAGE)
                .putExtField("queueId", 3).putExtField("queueOffset", 1795250930612L)
                .putExtField("committed", true).putExtField("flag", "TRUE").putExtField("bad", "12x");
        assertEquals(3, command.requireInt("queueId"));
        assertEquals(1795250930612L, command.requireLong("queueOffset"));
        assertTrue(command.requireBoolean("committed"));
        assertTrue(command.requireBoolean("flag"), "booleans are true when equal to \"true\" ignoring case");
        assertFalse(command.optionalBoolean("bad", true), "anything else is false, as in Apache");
        assertEquals(7, command.optionalInt("missing", 7));
        assertEquals(-1L, command.optionalLong("missing", -1L));
        assertEquals("d", command.optionalString("missing", "d"));

        MalformedHeaderException missing = assertThrows(MalformedHeaderException.class,
                () -> command.requireString("topic"));
        assertEquals("topic", missing.field());
        assertTrue(missing.getMessage().contains("'topic'"), missing.getMessage());
        MalformedHeaderException notInt = assertThrows(MalformedHeaderException.class,
                () -> command.optionalInt("bad", 0));
        assertEquals("bad", notInt.field());
        assertTrue(notInt.getMessage().contains("12x"), notInt.getMessage());
        assertThrows(MalformedHeaderException.class, () -> command.requireLong("bad"));
        assertThrows(MalformedHeaderException.class, () -> command.requireInt("queueOffset"), "overflows int");
    }

    @Test
    void factoriesSetFlagsOpaqueAndSerialization() {
        RemotingCommand request = RemotingCommand.request(RequestCode.SEND_MESSAGE_V2).setOpaque(41)
                .setSerializeType(SerializeType.ROCKETMQ);
        assertFalse(request.isResponse());
        assertEquals(ProtocolVersion.CURRENT, request.version());
        assertEquals(LanguageCode.JAVA, request.language());
        RemotingCommand response = RemotingCommand.responseTo(request, ResponseCode.FLUSH_DISK_TIMEOUT, "slow");
        assertTrue(response.isResponse());
        assertEquals(41, response.opaque());
        assertEquals(SerializeType.ROCKETMQ, response.serializeType());
        assertEquals(ResponseCode.FLUSH_DISK_TIMEOUT, response.code());
        assertEquals("slow", response.remark());
        assertEquals(RemotingCommand.FLAG_RESPONSE | RemotingCommand.FLAG_ONEWAY,
                RemotingCommand.response(0, null).markOneway().flag());
    }

    @Test
    void extFieldsKeepInsertionOrderAndRejectNulls() {
        RemotingCommand command = RemotingCommand.request(1).putExtField("b", "1").putExtField("a", "2")
                .putExtField("b", "3");
        assertEquals(List.of("b", "a"), List.copyOf(command.extFields().keySet()));
        assertEquals("3", command.extField("b"));
        assertThrows(UnsupportedOperationException.class, () -> command.extFields().put("x", "y"));
        assertThrows(NullPointerException.class, () -> command.putExtField("x", (String) null));
        assertFalse(RemotingCommand.request(1).hasExtFields());
        assertTrue(RemotingCommand.request(1).setExtFields(java.util.Map.of()).hasExtFields());
    }

    @Test
    void bodyIsSharedWhenWholeAndCopiedWhenSplit() {
        byte[] bytes = {1, 2, 3};
        assertSame(bytes, RemotingCommand.request(1).setBody(bytes).body());
        assertNull(RemotingCommand.request(1).setBody(new byte[0]).body());
        ByteBuffer first = ByteBuffer.wrap(new byte[] {9, 1, 2});
        first.position(1);
        RemotingCommand split = RemotingCommand.request(1).setBody(first, ByteBuffer.wrap(new byte[] {3}));
        assertEquals(3, split.bodyBytes());
        assertArrayEquals(new byte[] {1, 2, 3}, split.body());
        assertEquals(1, first.position(), "the caller's buffer is not consumed");
        assertTrue(split.bodyBuffers()[0].isReadOnly());
    }
}
