package io.sluice.benchmark.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.remoting.protocol.RemotingCommand;
import io.sluice.remoting.protocol.RequestCode;
import io.sluice.remoting.protocol.ResponseCode;
import io.sluice.remoting.protocol.body.BodyCodec;
import io.sluice.remoting.protocol.body.KVTable;
import io.sluice.remoting.transport.RemotingServer;
import io.sluice.remoting.transport.RequestHandler;
import io.sluice.remoting.transport.ServerSettings;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class DispatchLagProbeTest {

    @Test
    void readsBothUnitsFromSluicesTable() {
        DispatchLagProbe.Reading r = DispatchLagProbe.parse(Map.of("dispatchBehindBytes", "4096",
                "dispatchBehindMs", "7", "brokerVersionDesc", "V5_3_3"));
        assertEquals(new DispatchLagProbe.Reading(4096, OptionalLong.of(7)), r);
    }

    @Test
    void apachesTableHasNoMilliseconds() {
        assertEquals(new DispatchLagProbe.Reading(0, OptionalLong.empty()),
                DispatchLagProbe.parse(Map.of("dispatchBehindBytes", "0")));
    }

    @Test
    void aMissingOrBadValueIsAnErrorNamingIt() {
        IllegalArgumentException missing = assertThrows(IllegalArgumentException.class,
                () -> DispatchLagProbe.parse(Map.of("dispatchBehindMs", "1")));
        assertTrue(missing.getMessage().contains("dispatchBehindBytes"), missing.getMessage());
        IllegalArgumentException text = assertThrows(IllegalArgumentException.class,
                () -> DispatchLagProbe.parse(Map.of("dispatchBehindBytes", "1", "dispatchBehindMs", "soon")));
        assertTrue(text.getMessage().contains("dispatchBehindMs") && text.getMessage().contains("soon"),
                text.getMessage());
        IllegalArgumentException negative = assertThrows(IllegalArgumentException.class,
                () -> DispatchLagProbe.parse(Map.of("dispatchBehindBytes", "-3")));
        assertTrue(negative.getMessage().contains("-3"), negative.getMessage());
    }

    @Test
    void asksTheBrokerOverTheWireAndReportsAFailureAnswer() throws Exception {
        AtomicReference<RemotingCommand> answer = new AtomicReference<>();
        try (RemotingServer server = new RemotingServer(ServerSettings.builder().bindAddress("127.0.0.1").port(0)
                .build())) {
            server.registerHandler(RequestCode.GET_BROKER_RUNTIME_INFO, RequestHandler.sync((c, request) ->
                    answer.get()));
            server.start();
            try (DispatchLagProbe probe = new DispatchLagProbe("127.0.0.1:" + server.port(), 5_000)) {
                answer.set(RemotingCommand.response(ResponseCode.SUCCESS, null).setBody(BodyCodec.encode(
                        new KVTable(Map.of("dispatchBehindBytes", "123", "dispatchBehindMs", "4")))));
                assertEquals(new DispatchLagProbe.Reading(123, OptionalLong.of(4)), probe.read());

                answer.set(RemotingCommand.response(ResponseCode.SYSTEM_BUSY, "starting"));
                IllegalStateException busy = assertThrows(IllegalStateException.class, probe::read);
                assertTrue(busy.getMessage().contains("starting"), busy.getMessage());

                answer.set(RemotingCommand.response(ResponseCode.SUCCESS, null)
                        .setBody(BodyCodec.encode(new KVTable(Map.of("brokerActive", "true")))));
                IllegalStateException noKey = assertThrows(IllegalStateException.class, probe::read);
                assertTrue(noKey.getMessage().contains("dispatchBehindBytes"), noKey.getMessage());
            }
        }
    }
}
