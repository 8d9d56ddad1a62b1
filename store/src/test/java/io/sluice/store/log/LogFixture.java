package io.sluice.store.log;

import io.sluice.testing.Await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/** Small-segment logs and drafts for tests. */
final class LogFixture {

    static final InetSocketAddress STORE_HOST = new InetSocketAddress(InetAddress.getLoopbackAddress(), 10911);
    static final InetSocketAddress BORN_HOST = new InetSocketAddress(InetAddress.getLoopbackAddress(), 46510);
    /** Small enough to roll often, large enough for 32 KiB bodies. */
    static final int SEGMENT_BYTES = 128 * 1024;
    static final int MAX_MESSAGE_BYTES = 32 * 1024;

    private LogFixture() {
    }

    static LogSettings.Builder settings(Path dir) {
        return LogSettings.builder(dir.resolve("commitlog"), STORE_HOST)
                .segmentBytes(SEGMENT_BYTES)
                .maxMessageBytes(MAX_MESSAGE_BYTES);
    }

    static CommitLog openRecovered(LogSettings settings, LogEnvironment env) throws IOException {
        CommitLog log = CommitLog.open(settings, env);
        log.recover(0, true, e -> { });
        return log;
    }

    static CommitLog openRecovered(Path dir) throws IOException {
        return openRecovered(settings(dir).build(), LogEnvironment.system());
    }

    static MessageDraft draft(String topic, int queueId, byte[] body, String properties) {
        return MessageDraft.builder(topic, queueId).body(body).propertiesText(properties).bornHost(BORN_HOST)
                .bornTimestampMs(1_700_000_000_000L).build();
    }

    static MessageDraft draft(String topic, int queueId, String body) {
        return draft(topic, queueId, body.getBytes(StandardCharsets.UTF_8), "");
    }

    static AppendResult appendOk(CommitLog log, MessageDraft draft) {
        AppendResult r = Await.result(log.append(draft));
        assertEquals(AppendStatus.PUT_OK, r.status(), () -> "append of " + draft.topic() + " refused: " + r);
        return r;
    }

    static InetSocketAddress ipv6(int port) {
        try {
            return new InetSocketAddress(InetAddress.getByName("fe80::1234:5678:9abc:def0"), port);
        } catch (UnknownHostException e) {
            throw new IllegalStateException(e);
        }
    }

    static byte[] bytes(ByteBuffer b) {
        byte[] out = new byte[b.remaining()];
        b.duplicate().get(out);
        return out;
    }

    /** {@code length} bytes of the log in {@code dir} ({@link #settings}) from log position {@code position}. */
    static byte[] fileBytes(Path dir, long position, int length) throws IOException {
        Path file = dir.resolve("commitlog").resolve(MappedSegment.fileName(position - position % SEGMENT_BYTES));
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            ByteBuffer b = ByteBuffer.allocate(length);
            ch.read(b, position % SEGMENT_BYTES);
            return b.array();
        }
    }

    static byte[] filled(int length, int seed) {
        byte[] out = new byte[length];
        for (int i = 0; i < length; i++) {
            out[i] = (byte) (seed * 31 + i * 7);
        }
        return out;
    }
}
