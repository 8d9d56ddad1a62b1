package io.sluice.broker.handler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.broker.config.BrokerSettings;
import io.sluice.broker.config.RuntimeSettings;
import io.sluice.broker.testing.FakeConnection;
import io.sluice.remoting.protocol.RemotingCommand;
import io.sluice.remoting.protocol.RequestCode;
import io.sluice.remoting.protocol.ResponseCode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.agrona.concurrent.CachedEpochClock;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * UPDATE_BROKER_CONFIG as mqadmin sends it: every refusal is INVALID_PARAMETER with a remark naming the problem
 * and the key, and changes nothing (no setting, no file); an accepted update is applied, counted and persisted.
 */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class BrokerConfigHandlerTest {

    @TempDir
    Path dir;

    private final CachedEpochClock clock = new CachedEpochClock();
    private final FakeConnection connection = new FakeConnection(40_100);
    private RuntimeSettings runtime;
    private BrokerConfigHandler handler;

    @BeforeEach
    void start() throws Exception {
        clock.update(5_000);
        runtime = RuntimeSettings.withPersisted(BrokerSettings.builder()
                .setText("storePathRootDir", dir.toString()).build(), 1_000);
        handler = new BrokerConfigHandler(runtime, clock);
    }

    private RemotingCommand update(String body) {
        RemotingCommand request = RemotingCommand.request(RequestCode.UPDATE_BROKER_CONFIG);
        if (body != null) {
            request.setBody(body.getBytes(StandardCharsets.UTF_8));
        }
        return handler.onUpdateBrokerConfig(connection, request);
    }

    private void assertRefusedNaming(String body, String... words) {
        RemotingCommand answer = update(body);
        assertEquals(ResponseCode.INVALID_PARAMETER, answer.code(), String.valueOf(body));
        for (String word : words) {
            assertTrue(answer.remark().contains(word), word + " in " + answer.remark());
        }
        assertEquals(0, runtime.changes(), "nothing changed");
        assertTrue(runtime.current().autoCreateSubscriptionGroup());
        assertFalse(Files.exists(dir.resolve("config").resolve(RuntimeSettings.FILE_NAME)), "nothing persisted");
    }

    @Test
    void refusalsNameTheProblemAndChangeNothing() {
        assertRefusedNaming(null, "empty body");
        assertRefusedNaming("", "empty body");
        assertRefusedNaming("autoCreateSubscriptionGroup=\\u00zz", "not Java-properties text");
        assertRefusedNaming("noSuchKey=1", "unknown key 'noSuchKey'");
        assertRefusedNaming("listenPort=10999", "listenPort", "cannot change while the broker runs");
        assertRefusedNaming("clientChannelExpiredTimeoutMs=soon", "clientChannelExpiredTimeoutMs", "'soon'");
        assertRefusedNaming("autoCreateSubscriptionGroup=maybe", "autoCreateSubscriptionGroup", "expected true or"
                + " false");
        assertRefusedNaming("autoCreateSubscriptionGroup=false\nbrokerName=other", "brokerName");
    }

    @Test
    void anAcceptedUpdateIsAppliedCountedAndPersisted() throws Exception {
        RemotingCommand answer = update("# from mqadmin\nautoCreateSubscriptionGroup = false\n"
                + "clientChannelExpiredTimeoutMs=60000\n");
        assertEquals(ResponseCode.SUCCESS, answer.code(), answer.remark());
        assertFalse(runtime.current().autoCreateSubscriptionGroup());
        assertEquals(60_000, runtime.current().clientChannelExpiredTimeoutMs());
        assertEquals(1, runtime.changes());
        assertEquals(5_000, runtime.lastChangeMs());
        String saved = Files.readString(dir.resolve("config").resolve(RuntimeSettings.FILE_NAME));
        assertTrue(saved.contains("autoCreateSubscriptionGroup=false"), saved);
        assertTrue(saved.contains("clientChannelExpiredTimeoutMs=60000"), saved);
    }
}
