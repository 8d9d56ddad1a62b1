package io.sluice.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.sluice.format.ConsumeQueueType;
import io.sluice.store.dispatch.SettableDispatcher;
import io.sluice.store.log.FlushMode;
import io.sluice.store.index.ConsumeQueueTable;
import io.sluice.store.index.IndexSettings;
import io.sluice.store.index.StoreTimeLookup;
import io.sluice.store.log.AppendResult;
import io.sluice.store.log.AppendStatus;
import io.sluice.store.log.CommitLog;
import io.sluice.store.log.LogEnvironment;
import io.sluice.store.log.LogSettings;
import io.sluice.store.log.MessageDraft;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A checkpoint records the lower of the dispatched and the flushed position (so both the log and the consume
 * queues below it are durable), is written only when that position moved, and a periodic run that fails is
 * counted without stopping the housekeeping thread.
 */
@Timeout(30)
class CheckpointAgentTest {

    private static final InetSocketAddress HOST = new InetSocketAddress(InetAddress.getLoopbackAddress(), 10911);

    @TempDir
    Path dir;

    private CommitLog log;
    private ConsumeQueueTable queues;
    private final SettableDispatcher dispatched = new SettableDispatcher();
    private final AtomicLong nowMs = new AtomicLong(1_700_000_000_000L);

    @BeforeEach
    void openLogAndQueues() throws IOException {
        log = CommitLog.open(LogSettings.builder(dir.resolve("commitlog"), HOST).segmentBytes(256 * 1024)
                .maxMessageBytes(8 * 1024).flushMode(FlushMode.SYNC).build(), LogEnvironment.system());
        log.recover(0, true, e -> { });
        queues = ConsumeQueueTable.open(IndexSettings.defaults(dir), topic -> ConsumeQueueType.SIMPLE,
                StoreTimeLookup.NONE);
    }

    @AfterEach
    void closeAll() {
        queues.close();
        log.close();
    }

    @Test
    void theCheckpointIsTheLowerOfTheDispatchedAndTheFlushedPosition() throws IOException {
        StoreCheckpoint file = new StoreCheckpoint(dir);
        CheckpointAgent agent = new CheckpointAgent(log, queues, dispatched, file, nowMs::get);
        long end = 0;
        for (int i = 0; i < 5; i++) {
            end = append().nextPosition();
        }
        assertEquals(end, log.flushedPosition(), "a synchronous flush confirmed every append");

        dispatched.set(end / 2);
        assertEquals(end / 2, agent.checkpoint(), "dispatch is behind the flush");
        assertEquals(new Checkpoint(end / 2, nowMs.get()), file.read().orElseThrow());

        dispatched.set(end + 1_000);
        nowMs.addAndGet(1_000);
        assertEquals(end, agent.checkpoint(), "never beyond what is flushed");
        assertEquals(new Checkpoint(end, nowMs.get()), file.read().orElseThrow());
        assertEquals(end, agent.lastPosition());
    }

    @Test
    void anUnmovedPositionIsNotWrittenAgain() throws IOException {
        StoreCheckpoint file = new StoreCheckpoint(dir);
        CheckpointAgent agent = new CheckpointAgent(log, queues, dispatched, file, nowMs::get);
        long end = append().nextPosition();
        dispatched.set(end);
        agent.checkpoint();
        long writtenAtMs = nowMs.get();
        nowMs.addAndGet(60_000);
        assertEquals(end, agent.checkpoint());
        assertEquals(new Checkpoint(end, writtenAtMs), file.read().orElseThrow(), "the file was left alone");
    }

    @Test
    void aFailedCheckpointIsThrownWhenAskedAndCountedWhenPeriodic() throws IOException {
        Path notADirectory = Files.writeString(dir.resolve("occupied"), "a file where the directory should be");
        CheckpointAgent agent = new CheckpointAgent(log, queues, dispatched, new StoreCheckpoint(notADirectory),
                nowMs::get);
        dispatched.set(append().nextPosition());
        assertThrows(IOException.class, agent::checkpoint);
        agent.run();
        assertEquals(1, agent.failures());
        assertEquals(-1, agent.lastPosition(), "nothing was checkpointed");
    }

    private AppendResult append() {
        AppendResult result = log.append(MessageDraft.builder("T", 0).body(new byte[100]).bornHost(HOST).build())
                .join();
        assertEquals(AppendStatus.PUT_OK, result.status(), result::toString);
        return result;
    }
}
