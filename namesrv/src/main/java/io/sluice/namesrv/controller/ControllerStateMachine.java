package io.sluice.namesrv.controller;

import io.sluice.remoting.protocol.controller.ControllerWireDescriptor;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.ratis.proto.RaftProtos.LogEntryProto;
import org.apache.ratis.protocol.Message;
import org.apache.ratis.protocol.RaftGroupId;
import org.apache.ratis.server.RaftServer;
import org.apache.ratis.server.protocol.TermIndex;
import org.apache.ratis.server.storage.FileInfo;
import org.apache.ratis.server.storage.RaftStorage;
import org.apache.ratis.statemachine.StateMachineStorage;
import org.apache.ratis.statemachine.TransactionContext;
import org.apache.ratis.statemachine.impl.BaseStateMachine;
import org.apache.ratis.statemachine.impl.SimpleStateMachineStorage;
import org.apache.ratis.statemachine.impl.SingleFileSnapshotInfo;
import org.apache.ratis.thirdparty.com.google.protobuf.ByteString;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Ratis state machine of the controller: applies each committed {@link ControllerCommand} to the
 * {@link ReplicaTable} in log order and answers the proposer with the {@link ApplyResult}; snapshots are the whole
 * table ({@link ControllerSnapshotDescriptor}), written to a temporary file and renamed.
 *
 * <p>Threads: Ratis calls {@link #applyTransaction} on its single apply thread, and the snapshot methods on its
 * own threads; the table guards itself (see {@link ReplicaTable}).
 */
final class ControllerStateMachine extends BaseStateMachine {

    private static final Logger LOG = LoggerFactory.getLogger(ControllerStateMachine.class);

    private final ReplicaTable table;
    private final SimpleStateMachineStorage storage = new SimpleStateMachineStorage();
    private final AtomicLong refusedCommands = new AtomicLong();

    ControllerStateMachine(ReplicaTable table) {
        this.table = table;
    }

    @Override
    public void initialize(RaftServer server, RaftGroupId groupId, RaftStorage raftStorage) throws IOException {
        super.initialize(server, groupId, raftStorage);
        storage.init(raftStorage);
        load(storage.getLatestSnapshot());
    }

    @Override
    public void reinitialize() throws IOException {
        load(storage.loadLatestSnapshot());
    }

    private void load(SingleFileSnapshotInfo snapshot) throws IOException {
        if (snapshot == null) {
            return;
        }
        Path file = snapshot.getFile().getPath();
        try {
            table.restore(Files.readAllBytes(file));
        } catch (IllegalArgumentException e) {
            throw new IOException("controller snapshot " + file + " cannot be loaded: " + e.getMessage(), e);
        }
        setLastAppliedTermIndex(snapshot.getTermIndex());
        LOG.info("controller state loaded from snapshot {}", file);
    }

    @Override
    public StateMachineStorage getStateMachineStorage() {
        return storage;
    }

    @Override
    public long takeSnapshot() throws IOException {
        TermIndex last = getLastAppliedTermIndex();
        if (last == null || last.getIndex() < 0) {
            return -1;
        }
        byte[] content = table.snapshot();
        Path target = storage.getSnapshotFile(last.getTerm(), last.getIndex()).toPath();
        Path temporary = target.resolveSibling(target.getFileName() + ".tmp");
        Files.write(temporary, content);
        Files.move(temporary, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        storage.updateLatestSnapshot(new SingleFileSnapshotInfo(new FileInfo(target, null), last));
        return last.getIndex();
    }

    @Override
    public CompletableFuture<Message> applyTransaction(TransactionContext trx) {
        LogEntryProto entry = trx.getLogEntry();
        byte[] data = entry.getStateMachineLogEntry().getLogData().toByteArray();
        ApplyResult result;
        try {
            result = table.apply(ControllerLogDescriptor.decode(data));
        } catch (IllegalArgumentException e) {
            result = ApplyResult.refused(ControllerWireDescriptor.CONTROLLER_INVALID_REQUEST, e.getMessage());
        }
        if (!result.isOk()) {
            refusedCommands.incrementAndGet();
        }
        updateLastAppliedTermIndex(entry.getTerm(), entry.getIndex());
        return CompletableFuture.completedFuture(
                Message.valueOf(ByteString.copyFrom(ControllerLogDescriptor.encodeResult(result))));
    }

    /** Commands refused when applied (stale epochs, unknown groups), on this controller. */
    long refusedCommands() {
        return refusedCommands.get();
    }
}
