package io.sluice.broker.transaction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.sluice.broker.schedule.StoredMessage;
import io.sluice.broker.transaction.OpRecordDescriptor.Kind;
import io.sluice.broker.transaction.OpRecordDescriptor.Op;
import io.sluice.format.MessageProperties;
import io.sluice.store.log.MessageDraft;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The op record, which a restart reads back to rebuild the transaction state: what is written decodes to the same
 * op, and a damaged op record is refused naming the field instead of being taken for another op.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class OpRecordDescriptorTest {

    private static final InetSocketAddress HOST = new InetSocketAddress(InetAddress.getLoopbackAddress(), 10911);

    @Property(tries = 300)
    void everyOpReadsBackAsWritten(@ForAll Kind kind, @ForAll @LongRange(min = 0) long halfOffset,
                                   @ForAll @IntRange(min = 1) int checks, @ForAll @LongRange(min = 0) long realFrom) {
        Op op = new Op(kind, halfOffset, kind == Kind.CHECKED ? checks : 0, kind == Kind.COMMIT ? realFrom : 0);
        MessageDraft draft = OpRecordDescriptor.draft(op, 1_700_000_000_000L, HOST);
        assertEquals(OpRecordDescriptor.OP_TOPIC, draft.topic());
        assertEquals(0, draft.queueId());
        StoredMessage stored = stored(draft.body(), draft.propertiesText());
        assertEquals("d", stored.property(MessageProperties.TAGS), "Apache's tag of op records");
        assertEquals(op, OpRecordDescriptor.decode(stored));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', quoteCharacter = '"', value = {
        "\"\"|C|REAL_FROM=0|op body of 0 bytes is not a half offset",
        "12345678901234567890|C|REAL_FROM=0|op body of 20 bytes is not a half offset",
        "-4|R|-|op body -4 is negative",
        "4x|R|-|op body '4x' is not a number",
        "4|X|-|TRAN_OP 'X' is not one of C, R, D, K",
        "4|CR|-|TRAN_OP 'CR' is not one of C, R, D, K",
        "4|-|-|TRAN_OP 'null' is not one of C, R, D, K",
        "4|C|-|TRAN_OP_REAL_FROM is missing",
        "4|C|REAL_FROM=soon|TRAN_OP_REAL_FROM 'soon' is not a number",
        "4|K|-|TRAN_OP_CHECKS is missing",
        "4|K|CHECKS=0|TRAN_OP_CHECKS 0 is out of range",
        "4|K|CHECKS=4294967296|TRAN_OP_CHECKS 4294967296 is out of range"})
    void aDamagedOpRecordIsRefusedNamingTheField(String body, String kind, String extra, String reason) {
        Map<String, String> properties = new LinkedHashMap<>();
        properties.put(MessageProperties.TAGS, OpRecordDescriptor.OP_TAG);
        if (!kind.equals("-")) {
            properties.put(OpRecordDescriptor.KIND, kind);
        }
        if (!extra.equals("-")) {
            String[] pair = extra.split("=", 2);
            properties.put("TRAN_OP_" + pair[0], pair[1]);
        }
        StoredMessage stored = stored(ByteBuffer.wrap(body.getBytes(StandardCharsets.US_ASCII)),
                MessageProperties.encode(properties));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> OpRecordDescriptor.decode(stored));
        assertEquals(reason, e.getMessage());
    }

    private static StoredMessage stored(ByteBuffer body, String propertiesText) {
        return new StoredMessage(OpRecordDescriptor.OP_TOPIC, 0, 0, 7, 4096, 0, 1L, HOST, 2L, HOST, 0, 0,
                body.asReadOnlyBuffer(), propertiesText);
    }
}
