package io.sluice.namesrv.controller;

import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;

/**
 * What the request handlers and the election agent need of this controller's place in the Raft group: whether,
 * and in which term, it leads, and a way to commit commands. {@link Controller} answers from its Ratis server.
 *
 * <p>Implementations are thread-safe.
 */
interface RaftMember {

    /** The term this controller leads, once it has applied that term's first entry; empty while it does not lead. */
    OptionalLong leaderTerm();

    /** Commits {@code command} through the Raft log; the future completes with its outcome once applied. */
    CompletableFuture<ApplyResult> propose(ControllerCommand command);
}
