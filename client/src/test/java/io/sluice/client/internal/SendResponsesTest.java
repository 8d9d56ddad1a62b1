package io.sluice.client.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.client.ClientException;
import io.sluice.client.SendResult;
import io.sluice.client.SendStatus;
import io.sluice.remoting.protocol.RemotingCommand;
import io.sluice.remoting.protocol.ResponseCode;
import io.sluice.remoting.protocol.body.MessageQueue;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;

/** A stored send response split into one result per message, and the codes a producer retries on. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class SendResponsesTest {

    @Test
    void onlyTheFourStoredCodesMapToAStatus() {
        assertEquals(SendStatus.SEND_OK, SendResponses.storedStatus(ResponseCode.SUCCESS));
        assertEquals(SendStatus.FLUSH_DISK_TIMEOUT, SendResponses.storedStatus(ResponseCode.FLUSH_DISK_TIMEOUT));
        assertEquals(SendStatus.FLUSH_SLAVE_TIMEOUT, SendResponses.storedStatus(ResponseCode.FLUSH_SLAVE_TIMEOUT));
        assertEquals(SendStatus.SLAVE_NOT_AVAILABLE, SendResponses.storedStatus(ResponseCode.SLAVE_NOT_AVAILABLE));
        for (int code : new int[] {ResponseCode.SYSTEM_BUSY, ResponseCode.MESSAGE_ILLEGAL,
            ResponseCode.TOPIC_NOT_EXIST, ResponseCode.NO_PERMISSION, -1}) {
            assertNull(SendResponses.storedStatus(code), "code " + code);
        }
    }

    @Test
    void aProducerRetriesWhereAnotherBrokerOrALaterTryCanSucceedAndNowhereElse() {
        for (int code : new int[] {ResponseCode.TOPIC_NOT_EXIST, ResponseCode.SERVICE_NOT_AVAILABLE,
            ResponseCode.SYSTEM_ERROR, ResponseCode.NO_PERMISSION, ResponseCode.SYSTEM_BUSY, ResponseCode.GO_AWAY}) {
            assertTrue(SendResponses.isRetryable(code), "code " + code);
        }
        for (int code : new int[] {ResponseCode.SUCCESS, ResponseCode.MESSAGE_ILLEGAL,
            ResponseCode.FLUSH_DISK_TIMEOUT, ResponseCode.SLAVE_NOT_AVAILABLE}) {
            assertFalse(SendResponses.isRetryable(code), "code " + code + ": stored, or the message itself is bad");
        }
    }

    @Property(tries = 200)
    void aBatchGetsOneIdAndOneConsecutiveOffsetPerMessage(@ForAll @IntRange(min = 1, max = 40) int count,
                                                          @ForAll @LongRange(min = 0, max = 1L << 50) long base,
                                                          @ForAll @IntRange(min = 0, max = 1023) int queueId) {
        List<String> uniqKeys = keys(count);
        List<String> offsetIds = IntStream.range(0, count).mapToObj(i -> "OFF" + i).toList();
        RemotingCommand response = stored(ResponseCode.SUCCESS, String.join(",", offsetIds), queueId, base);
        List<SendResult> results = SendResponses.split(response, "broker-a", "T", uniqKeys);
        assertEquals(count, results.size());
        for (int i = 0; i < count; i++) {
            SendResult r = results.get(i);
            assertEquals(new SendResult(SendStatus.SEND_OK, uniqKeys.get(i), offsetIds.get(i),
                    new MessageQueue("T", "broker-a", queueId), base + i, null), r);
        }
    }

    @Test
    void anInnerBatchSharesItsRecordIdAndCarriesItsBatchId() {
        List<String> uniqKeys = keys(3);
        RemotingCommand response = stored(ResponseCode.FLUSH_DISK_TIMEOUT, "RECORD", 2, 100)
                .putExtField("batchUniqId", "BATCH");
        List<SendResult> results = SendResponses.split(response, "b", "T", uniqKeys);
        List<SendResult> expected = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            expected.add(new SendResult(SendStatus.FLUSH_DISK_TIMEOUT, uniqKeys.get(i), "RECORD",
                    new MessageQueue("T", "b", 2), 100 + i, "BATCH"));
        }
        assertEquals(expected, results);
    }

    @Test
    void aSingleMessageKeepsAnIdEvenIfItHoldsAComma() {
        RemotingCommand response = stored(ResponseCode.SUCCESS, "A,B", 0, 5);
        List<SendResult> results = SendResponses.split(response, "b", "T", keys(1));
        assertEquals("A,B", results.get(0).offsetMsgId());
        assertEquals(5, results.get(0).queueOffset());
    }

    @Test
    void anIdCountThatDoesNotMatchTheBatchIsRefused() {
        RemotingCommand response = stored(ResponseCode.SUCCESS, "A,B", 0, 5);
        ClientException e = assertThrows(ClientException.class,
                () -> SendResponses.split(response, "broker-x", "T", keys(3)));
        assertEquals("illegal send response from broker-x: 2 message ids for a batch of 3", e.getMessage());
    }

    @ParameterizedTest
    @ValueSource(strings = {"msgId", "queueId", "queueOffset"})
    void aResponseWithoutAFieldIsRefusedNamingTheBroker(String missing) {
        RemotingCommand response = stored(ResponseCode.SUCCESS, "A", 1, 5);
        Map<String, String> fields = new LinkedHashMap<>(response.extFields());
        fields.remove(missing);
        response.setExtFields(fields);
        ClientException e = assertThrows(ClientException.class,
                () -> SendResponses.split(response, "broker-x", "T", keys(1)));
        assertTrue(e.getMessage().startsWith("illegal send response from broker-x: code 0, header "),
                e.getMessage());
    }

    @Test
    void aResponseWhoseCodeIsNotStoredIsRefused() {
        RemotingCommand response = stored(ResponseCode.SYSTEM_BUSY, "A", 1, 5);
        ClientException e = assertThrows(ClientException.class,
                () -> SendResponses.split(response, "broker-x", "T", keys(1)));
        assertTrue(e.getMessage().startsWith("illegal send response from broker-x: code 2"), e.getMessage());
    }

    @ParameterizedTest
    @ValueSource(strings = {"queueId=x", "queueOffset=1.5", "queueId=99999999999"})
    void aNonNumericQueueFieldIsRefused(String field) {
        String[] nameValue = field.split("=");
        RemotingCommand response = stored(ResponseCode.SUCCESS, "A", 1, 5).putExtField(nameValue[0], nameValue[1]);
        ClientException e = assertThrows(ClientException.class,
                () -> SendResponses.split(response, "broker-x", "T", keys(1)));
        assertTrue(e.getMessage().startsWith("illegal send response from broker-x: header "), e.getMessage());
        assertTrue(e.getMessage().contains(nameValue[1]), e.getMessage());
    }

    private static RemotingCommand stored(int code, String msgIds, int queueId, long queueOffset) {
        return RemotingCommand.response(code, null).putExtField("msgId", msgIds)
                .putExtField("queueId", queueId).putExtField("queueOffset", queueOffset);
    }

    private static List<String> keys(int count) {
        return IntStream.range(0, count).mapToObj(i -> "UNIQ" + i).toList();
    }
}
