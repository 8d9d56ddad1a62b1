package io.sluice.broker.handler;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.broker.schedule.StoredMessage;
import io.sluice.testing.Await;
import io.sluice.broker.testing.FakeConnection;
import io.sluice.broker.testing.OpenStores;
import io.sluice.broker.topic.TopicRegistry;
import io.sluice.broker.topic.TopicSettings;
import io.sluice.remoting.protocol.RemotingCommand;
import io.sluice.remoting.protocol.RequestCode;
import io.sluice.remoting.protocol.ResponseCode;
import io.sluice.store.log.AppendResult;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.agrona.concurrent.SystemEpochClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class MessageQueryHandlerTest {

    @TempDir
    Path dir;

    private OpenStores stores;
    private MessageQueryHandler handler;
    private final FakeConnection connection = new FakeConnection(8001);

    @BeforeEach
    void open() throws IOException {
        stores = OpenStores.open(dir);
        TopicRegistry topics = new TopicRegistry(stores.metadata(), new TopicSettings(false, 8),
                (list, version) -> CompletableFuture.completedFuture(null));
        handler = new MessageQueryHandler(stores.store(), topics, SystemEpochClock.INSTANCE);
        stores.createTopic("T", 2);
    }

    @AfterEach
    void close() {
        stores.close();
    }

    @Test
    void shouldViewTheStoredRecordByPosition() {
        stores.append(OpenStores.draft("T", 0, "first", ""));
        AppendResult second = stores.append(OpenStores.draft("T", 1, "second", "KEYS\u0001k\u0002"));
        RemotingCommand response = handler.onViewMessageById(connection, RemotingCommand.request(
                RequestCode.VIEW_MESSAGE_BY_ID).putExtField("topic", "T").putExtField("offset", second.position()));
        assertEquals(ResponseCode.SUCCESS, response.code());
        assertArrayEquals(bytes(stores.store().recordAt(second.position()).orElseThrow()), response.body());
        assertEquals("second", OpenStores.bodyText(StoredMessage.decode(ByteBuffer.wrap(response.body())).body()));

        RemotingCommand missing = handler.onViewMessageById(connection, RemotingCommand.request(
                RequestCode.VIEW_MESSAGE_BY_ID).putExtField("offset", second.position() + 1));
        assertEquals(ResponseCode.SYSTEM_ERROR, missing.code());
        assertEquals("can not find message by the offset, " + (second.position() + 1), missing.remark());
    }

    @Test
    void shouldQueryByKeyAndByUniqueKey() {
        for (int i = 0; i < 10; i++) {
            stores.append(OpenStores.draft("T", i % 2, "m" + i,
                    "KEYS\u0001k" + (i % 3) + " all\u0002UNIQ_KEY\u0001U" + i + "\u0002"));
        }
        Await.until("key index caught up", () -> stores.store().keyIndexStats().indexedPosition()
                >= stores.store().stats().writtenPosition());
        List<String> byKey = bodies(query("k1", false, 32));
        assertEquals(List.of("m7", "m4", "m1"), byKey, "newest first");
        assertEquals(10, bodies(query("all", false, 32)).size());
        assertEquals(4, bodies(query("all", false, 4)).size(), "maxNum");
        assertEquals(List.of("m6"), bodies(query("U6", true, 32)));
        assertEquals(List.of(), bodies(query("k1", true, 32)), "a key is not a unique key");
    }

    @Test
    void shouldAnswerQueryNotFoundWithTheIndexHeaders() {
        RemotingCommand response = handler.onQueryMessage(connection, queryRequest("T", "none", false, 32));
        assertEquals(ResponseCode.QUERY_NOT_FOUND, response.code());
        assertNotNull(response.extField("indexLastUpdateTimestamp"));
        assertNotNull(response.extField("indexLastUpdatePhyoffset"));
        assertTrue(response.remark().contains("with key none"), response.remark());
        assertEquals(ResponseCode.QUERY_NOT_FOUND,
                handler.onQueryMessage(connection, queryRequest("unknown", "k", false, 32)).code());
    }

    private RemotingCommand query(String key, boolean unique, int maxNum) {
        return handler.onQueryMessage(connection, queryRequest("T", key, unique, maxNum));
    }

    private static RemotingCommand queryRequest(String topic, String key, boolean unique, int maxNum) {
        return RemotingCommand.request(RequestCode.QUERY_MESSAGE).putExtField("topic", topic)
                .putExtField("key", key).putExtField("maxNum", maxNum).putExtField("beginTimestamp", 0)
                .putExtField("endTimestamp", Long.MAX_VALUE).putExtField("_UNIQUE_KEY_QUERY", unique);
    }

    private static List<String> bodies(RemotingCommand response) {
        List<String> out = new ArrayList<>();
        if (response.code() != ResponseCode.SUCCESS) {
            return out;
        }
        ByteBuffer all = ByteBuffer.wrap(response.body());
        while (all.hasRemaining()) {
            StoredMessage m = StoredMessage.decode(all.slice());
            out.add(OpenStores.bodyText(m.body()));
            all.position(all.position() + all.getInt(all.position()));
        }
        return out;
    }

    private static byte[] bytes(ByteBuffer b) {
        byte[] out = new byte[b.remaining()];
        b.duplicate().get(out);
        return out;
    }
}
