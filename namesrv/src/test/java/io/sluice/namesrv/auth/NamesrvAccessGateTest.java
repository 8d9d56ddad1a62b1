package io.sluice.namesrv.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.remoting.protocol.RemotingCommand;
import io.sluice.remoting.protocol.RequestCode;
import io.sluice.remoting.protocol.RequestSignature;
import io.sluice.remoting.protocol.ResponseCode;
import io.sluice.remoting.transport.Credentials;
import io.sluice.remoting.transport.GateVerdict;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 30, unit = TimeUnit.SECONDS)
class NamesrvAccessGateTest {

    private final NamesrvAccessGate gate = new NamesrvAccessGate(new NamesrvAuthentication(true,
            Optional.of(new Credentials("root", "root-secret")), Optional.of(new Credentials("inner", "inner-s"))));

    private static RemotingCommand registration() {
        return RemotingCommand.request(RequestCode.REGISTER_BROKER).putExtField("brokerName", "b1")
                .putExtField("clusterName", "c1").setBody(new byte[] {1, 2, 3});
    }

    @Test
    void anonymousReadsPass() {
        for (int code : NamesrvAccessGate.OPEN_CODES) {
            assertTrue(gate.check(RemotingCommand.request(code).putExtField("topic", "t")).passed(), "code " + code);
        }
        assertEquals(0, gate.refused());
    }

    @Test
    void changesNeedAKnownUsersSignature() {
        assertRefused(gate.check(registration()), "carries no AccessKey");
        assertRefused(gate.check(registration().putExtField(RequestSignature.ACCESS_KEY, "inner")), "no Signature");
        assertRefused(gate.check(RequestSignature.signInPlace(registration(), "nobody", "x")), "no user 'nobody'");
        assertRefused(gate.check(RequestSignature.signInPlace(registration(), "inner", "wrong")), "does not match");
        RemotingCommand tampered = RequestSignature.signInPlace(registration(), "inner", "inner-s");
        tampered.putExtField("brokerName", "b2");
        assertRefused(gate.check(tampered), "does not match");
        assertRefused(gate.check(RemotingCommand.request(RequestCode.DELETE_TOPIC_IN_NAMESRV)), "no AccessKey");
        assertRefused(gate.check(RemotingCommand.request(9999)), "no AccessKey");
        assertEquals(7, gate.refused());
        assertTrue(gate.check(RequestSignature.signInPlace(registration(), "inner", "inner-s")).passed());
        assertTrue(gate.check(RequestSignature.signInPlace(RemotingCommand.request(RequestCode.DELETE_TOPIC_IN_NAMESRV)
                .putExtField("topic", "t"), "root", "root-secret")).passed());
    }

    @Test
    void settingsAreValidated() {
        assertThrows(IllegalArgumentException.class,
                () -> new NamesrvAuthentication(true, Optional.empty(), Optional.empty()));
        assertThrows(IllegalArgumentException.class, () -> NamesrvAuthentication.parseInner("{\"accessKey\":\"a\"}"));
        assertThrows(IllegalArgumentException.class, () -> NamesrvAuthentication.parseUser("not json"));
        assertEquals(Optional.of(new Credentials("admin", "pw")),
                NamesrvAuthentication.parseUser("{\"username\":\"admin\",\"password\":\"pw\"}"));
        assertFalse(NamesrvAuthentication.parseInner(" ").isPresent());
    }

    private static void assertRefused(GateVerdict verdict, String remarkPart) {
        assertFalse(verdict.passed());
        assertEquals(ResponseCode.NO_PERMISSION, verdict.code());
        assertTrue(verdict.remark().contains(remarkPart), verdict.remark());
    }
}
