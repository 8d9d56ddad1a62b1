package io.sluice.broker.handler;

import io.sluice.remoting.protocol.RemotingCommand;
import io.sluice.remoting.protocol.ResponseCode;
import io.sluice.store.log.BatchBodyDescriptor;
import io.sluice.store.log.MessageProperties;
import io.sluice.store.log.RecordDescriptor;
import java.nio.ByteBuffer;
import java.util.Optional;

/**
 * Sends that ask for a delivery this broker does not perform: timer messages ({@code TIMER_DELIVER_MS},
 * {@code TIMER_DELAY_SEC}, {@code TIMER_DELAY_MS}) and transactional batches (transactions are single messages; the
 * Apache client never batches them). They are refused before anything is stored: an acknowledged send must be
 * delivered as it asked, so what cannot be is never acknowledged.
 *
 * <p>A timer send is answered MESSAGE_ILLEGAL, as an Apache broker with the timer wheel disabled does; so is a
 * transactional batch. Batches are checked entry by entry, since the Apache client keeps each message's properties
 * in its entry. Single transactional sends are served (io.sluice.broker.transaction).
 *
 * <p>Stateless; thread-safe.
 */
final class UnhonouredSends {

    private static final String[] TIMER_NAMES = {MessageProperties.TIMER_DELIVER_MS,
        MessageProperties.TIMER_DELAY_SEC, MessageProperties.TIMER_DELAY_MS};
    private static final MessageProperties.NameSet ENTRY_NAMES = MessageProperties.NameSet.of(
            MessageProperties.TIMER_DELIVER_MS, MessageProperties.TIMER_DELAY_SEC, MessageProperties.TIMER_DELAY_MS,
            MessageProperties.TRAN_MSG);

    private UnhonouredSends() {
    }

    /**
     * The refusal of a send this broker cannot honour.
     *
     * @param header the send header
     * @param body   the request body: the message body, or the batch body when {@code header.batch()}
     * @return the response to answer with, or empty when the send can be stored as asked
     */
    static Optional<RemotingCommand> refusal(SendRequest header, byte[] body) {
        String topic = header.topic();
        if (header.batch() && (RecordDescriptor.transactionType(header.sysFlag())
                != RecordDescriptor.TRANSACTION_NOT_TYPE
                || "true".equalsIgnoreCase(MessageProperties.find(header.properties(), MessageProperties.TRAN_MSG)))) {
            return Optional.of(transactionRefusal(topic));
        }
        for (String name : TIMER_NAMES) {
            if (MessageProperties.find(header.properties(), name) != null) {
                return Optional.of(timerRefusal(topic, name));
            }
        }
        if (header.batch()) {
            Optional<String> found = BatchBodyDescriptor.firstPropertyOfEntries(ByteBuffer.wrap(body), ENTRY_NAMES);
            if (found.isPresent()) {
                return Optional.of(MessageProperties.TRAN_MSG.equals(found.get())
                        ? transactionRefusal(topic) : timerRefusal(topic, found.get()));
            }
        }
        return Optional.empty();
    }

    private static RemotingCommand transactionRefusal(String topic) {
        return RemotingCommand.response(ResponseCode.MESSAGE_ILLEGAL, "a batch cannot carry transactional"
                + " messages: the batch to topic[" + topic + "] was not stored; send each transactional message on"
                + " its own");
    }

    private static RemotingCommand timerRefusal(String topic, String property) {
        return RemotingCommand.response(ResponseCode.MESSAGE_ILLEGAL, "timer messages are not supported by this"
                + " broker yet: the message to topic[" + topic + "] carries " + property + " and was not stored;"
                + " delay levels (DELAY) are supported");
    }
}
