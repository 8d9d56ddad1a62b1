package io.sluice.broker.transaction;

import io.sluice.broker.schedule.StoredMessage;
import io.sluice.store.log.AppendKind;
import io.sluice.store.log.MessageDraft;
import io.sluice.format.MessageProperties;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Layout of an op record: what became of one half message. Op records are ordinary CommitLog messages
 * ({@link io.sluice.format.RecordDescriptor}) in {@value #OP_TOPIC} queue 0, so they share the CommitLog's
 * recovery and retention; on start the transaction service reads them back to rebuild its state.
 *
 * <pre>
 *   topic       RMQ_SYS_TRANS_OP_HALF_TOPIC, queue 0
 *   BODY        ASCII decimal: the half message's queue offset in RMQ_SYS_TRANS_HALF_TOPIC queue 0 (as Apache)
 *   properties  TAGS=d                        Apache's tag of op records
 *               TRAN_OP=C | R | D | K         commit, rollback, discarded after transactionCheckMax checks,
 *                                             checked back (the count so far follows)
 *               TRAN_OP_CHECKS=n              K only: checks sent for this half message so far, n >= 1
 *               TRAN_OP_REAL_FROM=q           C only: a queue offset of the real queue at or below the committed
 *                                             copy's (the real queue's dispatched end when the op was written)
 * </pre>
 * C, R and D are final. A C op precedes its committed copy, which a start after a crash stores if absent
 * (docs/storage.md#transactional-messages). Stateless; thread-safe.
 */
final class OpRecordDescriptor {

    /** Where op records go. */
    static final String OP_TOPIC = "RMQ_SYS_TRANS_OP_HALF_TOPIC";
    /** Apache's tag of op records. */
    static final String OP_TAG = "d";
    static final String KIND = "TRAN_OP";
    static final String CHECKS = "TRAN_OP_CHECKS";
    static final String REAL_FROM = "TRAN_OP_REAL_FROM";

    /** What an op record says. */
    enum Kind {
        COMMIT('C', true), ROLLBACK('R', true), DISCARD('D', true), CHECKED('K', false);

        final char code;
        /** The half message's outcome is decided. */
        final boolean terminal;

        Kind(char code, boolean terminal) {
            this.code = code;
            this.terminal = terminal;
        }

        static Kind of(String code) {
            if (code != null && code.length() == 1) {
                for (Kind k : values()) {
                    if (k.code == code.charAt(0)) {
                        return k;
                    }
                }
            }
            throw new IllegalArgumentException(KIND + " '" + code + "' is not one of C, R, D, K");
        }
    }

    /**
     * One decoded op record.
     *
     * @param kind       what it says
     * @param halfOffset the half message's queue offset
     * @param checks     CHECKED only: the checks sent so far; 0 otherwise
     * @param realFrom   COMMIT only: where to look for the committed copy; 0 otherwise
     */
    record Op(Kind kind, long halfOffset, int checks, long realFrom) {
    }

    private OpRecordDescriptor() {
    }

    /** The draft of an op record for {@code op}, stored with the broker's address as born host. */
    static MessageDraft draft(Op op, long nowMs, InetSocketAddress bornHost) {
        Map<String, String> properties = new LinkedHashMap<>();
        properties.put(MessageProperties.TAGS, OP_TAG);
        properties.put(KIND, String.valueOf(op.kind().code));
        if (op.kind() == Kind.CHECKED) {
            properties.put(CHECKS, Integer.toString(op.checks()));
        } else if (op.kind() == Kind.COMMIT) {
            properties.put(REAL_FROM, Long.toString(op.realFrom()));
        }
        byte[] body = Long.toString(op.halfOffset()).getBytes(StandardCharsets.US_ASCII);
        return new MessageDraft(OP_TOPIC, 0, 0, 0, nowMs, bornHost, 0, 0, ByteBuffer.wrap(body),
                MessageProperties.encode(properties), AppendKind.SINGLE);
    }

    /**
     * Decodes an op record.
     *
     * @throws IllegalArgumentException naming the field when the record is not a well-formed op record
     */
    static Op decode(StoredMessage message) {
        ByteBuffer body = message.body();
        if (body.remaining() < 1 || body.remaining() > 19) {
            throw new IllegalArgumentException("op body of " + body.remaining() + " bytes is not a half offset");
        }
        byte[] digits = new byte[body.remaining()];
        body.duplicate().get(digits);
        long halfOffset = parseNonNegative(new String(digits, StandardCharsets.US_ASCII), "op body");
        Kind kind = Kind.of(message.property(KIND));
        int checks = 0;
        long realFrom = 0;
        if (kind == Kind.CHECKED) {
            long n = parseNonNegative(message.property(CHECKS), CHECKS);
            if (n < 1 || n > Integer.MAX_VALUE) {
                throw new IllegalArgumentException(CHECKS + " " + n + " is out of range");
            }
            checks = (int) n;
        } else if (kind == Kind.COMMIT) {
            realFrom = parseNonNegative(message.property(REAL_FROM), REAL_FROM);
        }
        return new Op(kind, halfOffset, checks, realFrom);
    }

    private static long parseNonNegative(String text, String field) {
        if (text == null) {
            throw new IllegalArgumentException(field + " is missing");
        }
        try {
            long value = Long.parseLong(text);
            if (value < 0) {
                throw new IllegalArgumentException(field + " " + value + " is negative");
            }
            return value;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(field + " '" + text + "' is not a number", e);
        }
    }
}
