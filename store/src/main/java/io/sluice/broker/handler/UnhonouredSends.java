package io.sluice.broker.handler;

import io.sluice.remoting.protocol.RemotingCommand;
import io.sluice.remoting.protocol.ResponseCode;
import io.sluice.format.BatchBodyDescriptor;
import io.sluice.format.MessageProperties;
import io.sluice.format.RecordDescriptor;
import java.nio.ByteBuffer;
import java.util.Optional;

/**
 * Batches that ask for a delivery this broker does not perform: batches carrying timer messages
 * ({@code TIMER_DELIVER_MS}, {@code TIMER_DELAY_SEC}, {@code TIMER_DELAY_MS}) or transactional messages (timers and
 * transactions are served for single messages: io.sluice.broker.timer, io.sluice.broker.transaction). They are
 * refused, MESSAGE_ILLEGAL, before anything is stored: an acknowledged send must be delivered as it asked, so what
 * cannot be is never acknowledged. Batches are checked entry by entry too, since the Apache client keeps each
 * message's properties in its entry.
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
     * The refusal of a batch this broker cannot honour; single sends pass (their checks are elsewhere).
     *
     * @param header the send header
     * @param body   the request body, from its position to its limit: the message body, or the batch body when
     *               {@code header.batch()}; not changed
     * @return the response to answer with, or empty when the send can be stored as asked
     */
    static Optional<RemotingCommand> refusal(SendRequest header, ByteBuffer body) {
        if (!header.batch()) {
            return Optional.empty();
        }
        String topic = header.topic();
        if (RecordDescriptor.transactionType(header.sysFlag()) != RecordDescriptor.TRANSACTION_NOT_TYPE
                || "true".equalsIgnoreCase(MessageProperties.find(header.properties(), MessageProperties.TRAN_MSG))) {
            return Optional.of(transactionRefusal(topic));
        }
        for (String name : TIMER_NAMES) {
            if (MessageProperties.find(header.properties(), name) != null) {
                return Optional.of(timerRefusal(topic, name));
            }
        }
        Optional<String> found = BatchBodyDescriptor.firstPropertyOfEntries(body, ENTRY_NAMES);
        return found.map(name -> MessageProperties.TRAN_MSG.equals(name)
                ? transactionRefusal(topic) : timerRefusal(topic, name));
    }

    private static RemotingCommand transactionRefusal(String topic) {
        return RemotingCommand.response(ResponseCode.MESSAGE_ILLEGAL, "a batch cannot carry transactional"
                + " messages: the batch to topic[" + topic + "] was not stored; send each transactional message on"
                + " its own");
    }

    private static RemotingCommand timerRefusal(String topic, String property) {
        return RemotingCommand.response(ResponseCode.MESSAGE_ILLEGAL, "a batch cannot carry timer messages: the"
                + " batch to topic[" + topic + "] carries " + property + " and was not stored; send each timer"
                + " message on its own");
    }
}
