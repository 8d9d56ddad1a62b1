package io.sluice.namesrv.handler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.sluice.namesrv.route.KvConfigTable;
import io.sluice.remoting.protocol.MalformedHeaderException;
import io.sluice.remoting.protocol.RemotingCommand;
import io.sluice.remoting.protocol.RequestCode;
import io.sluice.remoting.protocol.ResponseCode;
import org.junit.jupiter.api.Test;

class KvConfigHandlerTest {

    private final KvConfigTable table = new KvConfigTable();
    private final KvConfigHandler handler = new KvConfigHandler(table);
    private final TestConnection connection = new TestConnection("c");

    private static RemotingCommand request(int code, String key) {
        return RemotingCommand.request(code).putExtField("namespace", "ORDER_TOPIC_CONFIG").putExtField("key", key);
    }

    @Test
    void shouldPutGetAndDeleteAValue() {
        RemotingCommand put = handler.handle(connection,
                request(RequestCode.PUT_KV_CONFIG, "T").putExtField("value", "broker-a:4"));
        RemotingCommand get = handler.handle(connection, request(RequestCode.GET_KV_CONFIG, "T"));
        RemotingCommand delete = handler.handle(connection, request(RequestCode.DELETE_KV_CONFIG, "T"));
        RemotingCommand missing = handler.handle(connection, request(RequestCode.GET_KV_CONFIG, "T"));
        RemotingCommand deleteAgain = handler.handle(connection, request(RequestCode.DELETE_KV_CONFIG, "T"));

        assertEquals(ResponseCode.SUCCESS, put.code());
        assertEquals("broker-a:4", get.extField("value"));
        assertEquals(ResponseCode.SUCCESS, delete.code());
        assertEquals(ResponseCode.QUERY_NOT_FOUND, missing.code());
        assertEquals("No config item, Namespace: ORDER_TOPIC_CONFIG Key: T", missing.remark());
        assertEquals(ResponseCode.SUCCESS, deleteAgain.code());
    }

    @Test
    void shouldNameMissingFields() {
        MalformedHeaderException noValue = assertThrows(MalformedHeaderException.class,
                () -> handler.handle(connection, request(RequestCode.PUT_KV_CONFIG, "T")));
        MalformedHeaderException noKey = assertThrows(MalformedHeaderException.class,
                () -> handler.handle(connection, RemotingCommand.request(RequestCode.GET_KV_CONFIG)
                        .putExtField("namespace", "n")));

        assertEquals("value", noValue.field());
        assertEquals("key", noKey.field());
    }

    @Test
    void shouldRejectABlankNamespace() {
        RemotingCommand response = handler.handle(connection, RemotingCommand.request(RequestCode.PUT_KV_CONFIG)
                .putExtField("namespace", " ").putExtField("key", "k").putExtField("value", "v"));

        assertEquals(ResponseCode.SYSTEM_ERROR, response.code());
    }
}
