package io.sluice.broker.handler;

import io.sluice.store.log.MessageDraft;

import java.util.function.ObjIntConsumer;
import java.util.function.UnaryOperator;

/**
 * What the send path does around the store append: a rewrite of the draft before it is stored (delay levels move
 * a message to the schedule topic) and a report of every stored append (put statistics).
 *
 * <p>Immutable; both functions are called on the connection's lane or a store completion thread, so they must not
 * block.
 *
 * @param beforeAppend rewrites a draft just before it is appended
 * @param onStored     told the topic and message count of every append the store accepted
 */
public record SendHooks(UnaryOperator<MessageDraft> beforeAppend, ObjIntConsumer<String> onStored) {

    /** No rewrite, no report. */
    public static final SendHooks NONE = new SendHooks(UnaryOperator.identity(), (topic, messages) -> { });

    public SendHooks {
        if (beforeAppend == null || onStored == null) {
            throw new IllegalArgumentException("send hooks must not be null");
        }
    }
}
