package io.sluice.broker.transaction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.sluice.remoting.protocol.MalformedHeaderException;
import io.sluice.remoting.protocol.RemotingCommand;
import io.sluice.remoting.protocol.RequestCode;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** END_TRANSACTION's header as the Apache client sends it, and the refusal of a header the broker cannot act on. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class EndTransactionRequestTest {

    private static Map<String, String> header() {
        Map<String, String> fields = new LinkedHashMap<>();
        fields.put("producerGroup", "pg");
        fields.put("tranStateTableOffset", "17");
        fields.put("commitLogOffset", "40960");
        fields.put("commitOrRollback", "8");
        fields.put("fromTransactionCheck", "true");
        fields.put("msgId", "M");
        fields.put("transactionId", "X");
        return fields;
    }

    private static RemotingCommand request(Map<String, String> fields) {
        return RemotingCommand.request(RequestCode.END_TRANSACTION).setExtFields(fields);
    }

    @Test
    void aFullHeaderIsReadFieldByField() {
        assertEquals(new EndTransactionRequest("pg", 17, 40960, EndTransactionRequest.COMMIT, true, "M", "X"),
                EndTransactionRequest.parse(request(header())));
    }

    @Test
    void theInformationalFieldsMayBeAbsent() {
        Map<String, String> fields = header();
        fields.remove("fromTransactionCheck");
        fields.remove("msgId");
        fields.remove("transactionId");
        fields.put("commitOrRollback", "12");
        assertEquals(new EndTransactionRequest("pg", 17, 40960, EndTransactionRequest.ROLLBACK, false, "", ""),
                EndTransactionRequest.parse(request(fields)));
    }

    @ParameterizedTest
    @ValueSource(strings = {"producerGroup", "tranStateTableOffset", "commitLogOffset", "commitOrRollback"})
    void aMissingRequiredFieldIsNamed(String field) {
        Map<String, String> fields = header();
        fields.remove(field);
        MalformedHeaderException e = assertThrows(MalformedHeaderException.class,
                () -> EndTransactionRequest.parse(request(fields)));
        assertEquals(field, e.field());
        assertEquals("missing header field '" + field + "'", e.getMessage());
    }

    @ParameterizedTest
    @ValueSource(strings = {"tranStateTableOffset", "commitLogOffset", "commitOrRollback"})
    void aFieldThatIsNoNumberIsNamed(String field) {
        Map<String, String> fields = header();
        fields.put(field, "soon");
        MalformedHeaderException e = assertThrows(MalformedHeaderException.class,
                () -> EndTransactionRequest.parse(request(fields)));
        assertEquals(field, e.field());
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 4, 9, -8})
    void anOutcomeOtherThanCommitRollbackOrUnknownIsRefused(int outcome) {
        Map<String, String> fields = header();
        fields.put("commitOrRollback", Integer.toString(outcome));
        MalformedHeaderException e = assertThrows(MalformedHeaderException.class,
                () -> EndTransactionRequest.parse(request(fields)));
        assertEquals("commitOrRollback", e.field());
        assertEquals("header field 'commitOrRollback' is " + outcome
                + ", expected 8 (commit), 12 (rollback) or 0 (unknown)", e.getMessage());
    }
}
