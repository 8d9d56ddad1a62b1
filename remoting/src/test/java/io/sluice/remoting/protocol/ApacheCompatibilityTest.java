package io.sluice.remoting.protocol;

import static io.sluice.remoting.protocol.Commands.assertSameCommand;
import static io.sluice.remoting.protocol.Commands.decodeFrame;
import static io.sluice.remoting.protocol.Commands.frameBytes;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.apache.rocketmq.remoting.exception.RemotingCommandException;
import org.junit.jupiter.api.Test;

/**
 * Encodes with Apache's {@code org.apache.rocketmq.remoting.protocol.RemotingCommand} and decodes with ours, and
 * the other way round, for both serialize types. Where both encoders are deterministic (the same extFields
 * iteration order), the frames must be byte-identical.
 */
class ApacheCompatibilityTest {
    private static final ApacheCodec APACHE = new ApacheCodec();

    // Apache 5.3.1 has no NODE_JS (13): its decoder yields a null language there.
    @Provide
    Arbitrary<RemotingCommand> jsonCommands() {
        return Commands.commands(SerializeType.JSON).filter(c -> c.language() != LanguageCode.NODE_JS);
    }

    @Provide
    Arbitrary<RemotingCommand> binaryCommands() {
        return Commands.commands(SerializeType.ROCKETMQ).filter(c -> c.language() != LanguageCode.NODE_JS);
    }

    @Property(tries = 150)
    void apacheDecodesOurJsonFrames(@ForAll("jsonCommands") RemotingCommand ours)
            throws FrameException, RemotingCommandException {
        assertSameCommand(ours, APACHE.toOurs(APACHE.decode(frameBytes(ours))));
    }

    @Property(tries = 150)
    void apacheDecodesOurBinaryFrames(@ForAll("binaryCommands") RemotingCommand ours)
            throws FrameException, RemotingCommandException {
        assertSameCommand(ours, APACHE.toOurs(APACHE.decode(frameBytes(ours))));
    }

    @Property(tries = 150)
    void weDecodeApacheFramesByteForByte(@ForAll("jsonCommands") RemotingCommand json,
            @ForAll("binaryCommands") RemotingCommand binary) throws FrameException {
        for (RemotingCommand original : new RemotingCommand[] {json, binary}) {
            org.apache.rocketmq.remoting.protocol.RemotingCommand apache = APACHE.fromOurs(original);
            byte[] apacheFrame = APACHE.encode(apache);
            RemotingCommand decoded = decodeFrame(apacheFrame);
            // Our map keeps Apache's HashMap iteration order, so re-encoding is comparable byte for byte.
            assertSameCommand(APACHE.toOurs(apache), decoded);
            assertArrayEquals(apacheFrame, frameBytes(decoded),
                    () -> "apache " + ByteBufUtil.hexDump(apacheFrame) + "\nours   "
                            + ByteBufUtil.hexDump(safeFrame(decoded)));
        }
    }

    @Test
    void apacheFastEncodeHeaderMatchesOurFrame() throws FrameException {
        for (SerializeType type : SerializeType.values()) {
            RemotingCommand ours = RemotingCommand.request(RequestCode.SEND_MESSAGE_V2).setOpaque(77)
                    .putExtField("a", "ProducerGroup").putExtField("b", "topic-ä").setBody(new byte[] {1, 2, 3})
                    .setSerializeType(type);
            org.apache.rocketmq.remoting.protocol.RemotingCommand apache = APACHE.fromOurs(ours);
            ByteBuf wire = Unpooled.buffer();
            apache.fastEncodeHeader(wire);
            wire.writeBytes(apache.getBody());
            assertArrayEquals(frameBytes(APACHE.toOurs(apache)), ByteBufUtil.getBytes(wire), type.name());
        }
    }

    @Test
    void apacheReadsOurResponseFlagAndRemark() throws FrameException, RemotingCommandException {
        RemotingCommand request = RemotingCommand.request(RequestCode.UPDATE_AND_CREATE_TOPIC).setOpaque(36);
        RemotingCommand response = RemotingCommand.responseTo(request, ResponseCode.TOPIC_NOT_EXIST,
                "No topic route info\nSee x");
        org.apache.rocketmq.remoting.protocol.RemotingCommand apache = APACHE.decode(frameBytes(response));
        assertEquals(true, apache.isResponseType());
        assertEquals(36, apache.getOpaque());
        assertEquals(ResponseCode.TOPIC_NOT_EXIST, apache.getCode());
        assertEquals("No topic route info\nSee x", apache.getRemark());
        assertNull(apache.getExtFields());
    }

    @Test
    void emptyBinaryValuesReadAsAbsentOnBothSides() throws FrameException, RemotingCommandException {
        RemotingCommand ours = RemotingCommand.request(1).putExtField("keys", "").putExtField("topic", "t")
                .setSerializeType(SerializeType.ROCKETMQ);
        byte[] frame = frameBytes(ours);
        assertNull(APACHE.decode(frame).getExtFields().get("keys"));
        assertEquals(Map.of("topic", "t"), decodeFrame(frame).extFields());
    }

    private static byte[] safeFrame(RemotingCommand command) {
        try {
            return frameBytes(command);
        } catch (FrameException e) {
            return new byte[0];
        }
    }

    /** Conversions between Apache's command class and ours, and Apache's own frame encode/decode. */
    private static final class ApacheCodec {
        org.apache.rocketmq.remoting.protocol.RemotingCommand fromOurs(RemotingCommand ours) {
            org.apache.rocketmq.remoting.protocol.RemotingCommand apache =
                    org.apache.rocketmq.remoting.protocol.RemotingCommand.createRequestCommand(ours.code(), null);
            apache.setLanguage(org.apache.rocketmq.remoting.protocol.LanguageCode.valueOf(ours.language().code()));
            apache.setVersion(ours.version());
            apache.setOpaque(ours.opaque());
            apache.setFlag(ours.flag());
            apache.setRemark(ours.remark());
            apache.setExtFields(ours.hasExtFields() ? new HashMap<>(ours.extFields()) : null);
            apache.setBody(ours.body());
            apache.setSerializeTypeCurrentRPC(ours.serializeType() == SerializeType.JSON
                    ? org.apache.rocketmq.remoting.protocol.SerializeType.JSON
                    : org.apache.rocketmq.remoting.protocol.SerializeType.ROCKETMQ);
            return apache;
        }

        RemotingCommand toOurs(org.apache.rocketmq.remoting.protocol.RemotingCommand apache) {
            Map<String, String> fields = null;
            if (apache.getExtFields() != null) {
                fields = new LinkedHashMap<>();
                for (Map.Entry<String, String> e : apache.getExtFields().entrySet()) {
                    if (e.getKey() != null && e.getValue() != null) {
                        fields.put(e.getKey(), e.getValue());
                    }
                }
            }
            return new RemotingCommand().setCode(apache.getCode())
                    .setLanguage(LanguageCode.fromCode(apache.getLanguage().getCode()))
                    .setVersion(apache.getVersion()).setOpaque(apache.getOpaque()).setFlag(apache.getFlag())
                    .setRemark(apache.getRemark()).setExtFields(fields).setBody(apache.getBody())
                    .setSerializeType(apache.getSerializeTypeCurrentRPC()
                            == org.apache.rocketmq.remoting.protocol.SerializeType.JSON
                            ? SerializeType.JSON : SerializeType.ROCKETMQ);
        }

        byte[] encode(org.apache.rocketmq.remoting.protocol.RemotingCommand apache) {
            ByteBuffer frame = apache.encode();
            byte[] bytes = new byte[frame.remaining()];
            frame.get(bytes);
            return bytes;
        }

        org.apache.rocketmq.remoting.protocol.RemotingCommand decode(byte[] frameWithLength)
                throws RemotingCommandException {
            return org.apache.rocketmq.remoting.protocol.RemotingCommand.decode(
                    ByteBuffer.wrap(frameWithLength, 4, frameWithLength.length - 4).slice());
        }
    }
}
