package io.sluice.broker.handler;

import io.sluice.store.log.MessageDraft;

import java.util.Optional;
import java.util.function.ObjIntConsumer;
import java.util.function.UnaryOperator;

/**
 * What the send path does around the store append: a check of single sends before anything is stored (timer
 * messages the broker cannot serve as asked), a rewrite of the draft before it is stored (delay levels and timers
 * move a message to their system topic) and a report of every stored append (put statistics).
 *
 * <p>Immutable; both functions are called on the connection's lane or a store completion thread, so they must not
 * block.
 *
 * @param admission    says why a single send cannot be stored as asked (answered MESSAGE_ILLEGAL)
 * @param beforeAppend rewrites a draft just before it is appended
 * @param onStored     told the topic and message count of every append the store accepted
 */
public record SendHooks(Admission admission, UnaryOperator<MessageDraft> beforeAppend,
                        ObjIntConsumer<String> onStored) {

    /** No check, no rewrite, no report. */
    public static final SendHooks NONE = new SendHooks((topic, sysFlag, properties) -> Optional.empty(),
            UnaryOperator.identity(), (topic, messages) -> { });

    /** The check of a single send before it is stored. */
    @FunctionalInterface
    public interface Admission {
        /**
         * The remark of the refusal of a single send, or empty when it can be stored as asked.
         *
         * @param topic          the send's topic
         * @param sysFlag        the send's SYSFLAG
         * @param propertiesText the send's properties
         */
        Optional<String> refusal(String topic, int sysFlag, String propertiesText);
    }

    public SendHooks {
        if (admission == null || beforeAppend == null || onStored == null) {
            throw new IllegalArgumentException("send hooks must not be null");
        }
    }
}
