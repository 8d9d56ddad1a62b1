package io.sluice.broker.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.remoting.protocol.RemotingCommand;
import io.sluice.remoting.protocol.RequestSignature;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.rocketmq.acl.common.AclClientRPCHook;
import org.apache.rocketmq.acl.common.SessionCredentials;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Our check of the signature against what Apache's {@code AclClientRPCHook} 5.3.1 computes. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class RequestSignatureTest {

    /** An Apache request signed by its hook, and the same fields and body as one of ours. */
    private static RemotingCommand signedByApache(String secret, byte[] body, String token) {
        org.apache.rocketmq.remoting.protocol.RemotingCommand apache =
                org.apache.rocketmq.remoting.protocol.RemotingCommand.createRequestCommand(310, null);
        apache.addExtField("a", "producer-group");
        apache.addExtField("b", "Orders");
        apache.addExtField("e", "3");
        apache.addExtField("i", "TAGS\u0001ünïcode\u0002");
        apache.setBody(body);
        new AclClientRPCHook(token == null ? new SessionCredentials("alice", secret)
                : new SessionCredentials("alice", secret, token)).doBeforeRequest("127.0.0.1:10911", apache);
        Map<String, String> fields = new HashMap<>(apache.getExtFields());
        return RemotingCommand.request(310).setExtFields(fields).setBody(body);
    }

    @Test
    void apachesSignatureVerifiesWithTheSameSecret() {
        byte[] body = "hello".getBytes(StandardCharsets.UTF_8);
        RemotingCommand request = signedByApache("s3cret", body, null);
        String signature = request.extField(RequestSignature.SIGNATURE);
        assertTrue(RequestSignature.verify(request, "s3cret", signature));
        assertEquals(signature, RequestSignature.sign(request, "s3cret"), "the same text as Apache's");
        assertFalse(RequestSignature.verify(request, "other", signature), "another secret");
        assertTrue(RequestSignature.verify(signedByApache("s3cret", null, "token-1"), "s3cret",
                signedByApache("s3cret", null, "token-1").extField(RequestSignature.SIGNATURE)),
                "no body, with a security token");
    }

    @Test
    void aChangedFieldOrBodyFailsVerification() {
        byte[] body = "hello".getBytes(StandardCharsets.UTF_8);
        RemotingCommand request = signedByApache("s3cret", body, null);
        String signature = request.extField(RequestSignature.SIGNATURE);
        request.putExtField("b", "Other");
        assertFalse(RequestSignature.verify(request, "s3cret", signature), "a field changed");
        RemotingCommand body2 = signedByApache("s3cret", body, null);
        body2.setBody(ByteBuffer.wrap("hellO".getBytes(StandardCharsets.UTF_8)));
        assertFalse(RequestSignature.verify(body2, "s3cret", signature), "the body changed");
        assertFalse(RequestSignature.verify(signedByApache("s3cret", body, null), "s3cret", "not base64 !"));
    }

    @Test
    void aBodyInSeveralBuffersIsSignedAsOne() {
        RemotingCommand whole = signedByApache("k", "abcdef".getBytes(StandardCharsets.UTF_8), null);
        RemotingCommand parts = RemotingCommand.request(310).setExtFields(new HashMap<>(whole.extFields()))
                .setBody(ByteBuffer.wrap("abc".getBytes(StandardCharsets.UTF_8)),
                        ByteBuffer.wrap("def".getBytes(StandardCharsets.UTF_8)));
        assertTrue(RequestSignature.verify(parts, "k", whole.extField(RequestSignature.SIGNATURE)));
    }
}
