package io.sluice.client.internal;

import io.sluice.format.BatchBodyDescriptor;
import io.sluice.format.MessageIdDescriptor;
import io.sluice.format.RecordDescriptor;
import static io.sluice.format.RecordDescriptor.BORN_HOST_OFFSET;
import static io.sluice.format.RecordDescriptor.BORN_TIMESTAMP_OFFSET;
import static io.sluice.format.RecordDescriptor.FLAG_OFFSET;
import static io.sluice.format.RecordDescriptor.MAGIC_OFFSET;
import static io.sluice.format.RecordDescriptor.PHYSICAL_OFFSET_OFFSET;
import static io.sluice.format.RecordDescriptor.QUEUE_OFFSET_OFFSET;
import static io.sluice.format.RecordDescriptor.SYS_FLAG_OFFSET;

import io.sluice.client.ReceivedMessage;
import io.sluice.remoting.protocol.body.MessageQueue;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;

/**
 * Decodes the records of a pull response body ({@link RecordDescriptor}) into messages, unwrapping BatchCQ
 * inner batches (docs/wire-protocol.md#inner-batches): inner message {@code i} gets the outer record's topic, hosts,
 * timestamps, sysFlag and CommitLog position, queue offset {@code base + i}, and its own flag, body and properties.
 *
 * <p>Decoding stops at the first record that is not a message record or does not fit, as the Apache client does;
 * the records before it are returned. ZLIB-compressed bodies are inflated; LZ4 and ZSTD bodies are returned as
 * stored (the compressed bit stays set in {@code sysFlag}).
 *
 * <p>Stateless; thread-safe.
 */
public final class RecordDecoder {

    private RecordDecoder() {
    }

    /**
     * Decodes every record of {@code body} pulled from {@code queue}.
     *
     * @param body the pull response body
     * @param queue the queue the body was pulled from: its broker name and queue id are given to every message
     * @return the messages in queue order
     */
    public static List<ReceivedMessage> decode(byte[] body, MessageQueue queue) {
        ByteBuffer buffer = ByteBuffer.wrap(body);
        List<ReceivedMessage> messages = new ArrayList<>();
        int index = 0;
        while (body.length - index >= RecordDescriptor.MIN_RECORD_BYTES) {
            int totalSize = buffer.getInt(index);
            int magic = buffer.getInt(index + MAGIC_OFFSET);
            if (magic != RecordDescriptor.MAGIC_V1 && magic != RecordDescriptor.MAGIC_V2
                    || totalSize < RecordDescriptor.MIN_RECORD_BYTES || totalSize > body.length - index) {
                break;
            }
            if (!decodeOne(buffer, index, totalSize, magic, queue, messages)) {
                break;
            }
            index += totalSize;
        }
        return messages;
    }

    private static boolean decodeOne(ByteBuffer buffer, int start, int totalSize, int magic, MessageQueue queue,
                                     List<ReceivedMessage> out) {
        int end = start + totalSize;
        int sysFlag = buffer.getInt(start + SYS_FLAG_OFFSET);
        int bornHostBytes = RecordDescriptor.bornHostBytes(sysFlag);
        int storeHostBytes = RecordDescriptor.storeHostBytes(sysFlag);
        int at = start + BORN_HOST_OFFSET;
        InetSocketAddress bornHost = host(buffer, at, bornHostBytes);
        at += bornHostBytes;
        long storeTimestamp = buffer.getLong(at);
        at += Long.BYTES;
        InetSocketAddress storeHost = host(buffer, at, storeHostBytes);
        byte[] storeAddress = new byte[storeHostBytes - 4];
        buffer.get(at, storeAddress);
        int storePort = buffer.getInt(at + storeAddress.length);
        at += storeHostBytes;
        int reconsumeTimes = buffer.getInt(at);
        at += Integer.BYTES + Long.BYTES;
        int bodyLength = buffer.getInt(at);
        at += Integer.BYTES;
        if (bodyLength < 0 || bodyLength > end - at) {
            return false;
        }
        int bodyIndex = at;
        at += bodyLength;
        int topicLength;
        if (magic == RecordDescriptor.MAGIC_V2) {
            topicLength = buffer.getShort(at) & 0xFFFF;
            at += Short.BYTES;
        } else {
            topicLength = buffer.get(at) & 0xFF;
            at += Byte.BYTES;
        }
        if (topicLength > end - at - Short.BYTES) {
            return false;
        }
        String topic = new String(buffer.array(), at, topicLength, StandardCharsets.UTF_8);
        at += topicLength;
        int propertiesLength = buffer.getShort(at) & 0xFFFF;
        at += Short.BYTES;
        if (propertiesLength > end - at) {
            return false;
        }
        long queueOffset = buffer.getLong(start + QUEUE_OFFSET_OFFSET);
        long commitLogOffset = buffer.getLong(start + PHYSICAL_OFFSET_OFFSET);
        long bornTimestamp = buffer.getLong(start + BORN_TIMESTAMP_OFFSET);
        String offsetMsgId = MessageIdDescriptor.offsetMsgId(storeAddress, storePort, commitLogOffset);
        if (RecordDescriptor.isInnerBatch(sysFlag)) {
            // All of a record's entries or none: a malformed entry stops decoding as a bad record does.
            ByteBuffer inner = ByteBuffer.wrap(buffer.array(), bodyIndex, bodyLength).slice();
            List<ReceivedMessage> decoded = new ArrayList<>();
            try {
                for (Iterator<BatchBodyDescriptor.Entry> it = BatchBodyDescriptor.entries(inner); it.hasNext(); ) {
                    BatchBodyDescriptor.Entry entry = it.next();
                    // Properties stay encoded in the pulled body until someone reads them.
                    Map<String, String> properties = new LazyProperties(buffer.array(),
                            bodyIndex + entry.propertiesIndex(), entry.propertiesLength());
                    decoded.add(new ReceivedMessage(topic, queue.queueId(), queue.brokerName(),
                            queueOffset + decoded.size(), entry.body(inner), entry.flag(), sysFlag, properties,
                            bornTimestamp, bornHost, storeTimestamp, storeHost, reconsumeTimes, commitLogOffset,
                            offsetMsgId));
                }
            } catch (IllegalArgumentException malformed) {
                return false;
            }
            out.addAll(decoded);
            return true;
        }
        // Decoded only for a record that is one message: an inner batch's entries carry their own properties.
        Map<String, String> properties = new LazyProperties(buffer.array(), at, propertiesLength);
        byte[] messageBody = new byte[bodyLength];
        buffer.get(bodyIndex, messageBody);
        if ((sysFlag & RecordDescriptor.COMPRESSED_FLAG) != 0) {
            int type = (sysFlag & RecordDescriptor.COMPRESSION_TYPE_MASK)
                    >>> RecordDescriptor.COMPRESSION_TYPE_SHIFT;
            if (type == 0 || type == RecordDescriptor.COMPRESSION_ZLIB) {
                byte[] inflated = inflate(messageBody);
                if (inflated == null) {
                    return false;
                }
                messageBody = inflated;
                sysFlag &= ~(RecordDescriptor.COMPRESSED_FLAG | RecordDescriptor.COMPRESSION_TYPE_MASK);
            }
        }
        out.add(new ReceivedMessage(topic, queue.queueId(), queue.brokerName(), queueOffset, messageBody,
                buffer.getInt(start + FLAG_OFFSET), sysFlag, properties, bornTimestamp, bornHost, storeTimestamp,
                storeHost, reconsumeTimes, commitLogOffset, offsetMsgId));
        return true;
    }

    private static InetSocketAddress host(ByteBuffer buffer, int at, int hostBytes) {
        byte[] address = new byte[hostBytes - 4];
        buffer.get(at, address);
        int port = buffer.getInt(at + address.length);
        try {
            return new InetSocketAddress(InetAddress.getByAddress(address), port & 0xFFFF);
        } catch (UnknownHostException impossible) {
            throw new IllegalStateException("address of " + address.length + " bytes", impossible);
        }
    }

    /** Inflates a ZLIB stream; null when it is corrupt. */
    private static byte[] inflate(byte[] compressed) {
        Inflater inflater = new Inflater();
        try {
            inflater.setInput(compressed);
            byte[] out = new byte[Math.max(64, compressed.length * 4)];
            int length = 0;
            while (!inflater.finished()) {
                if (length == out.length) {
                    out = Arrays.copyOf(out, out.length * 2);
                }
                int n = inflater.inflate(out, length, out.length - length);
                if (n == 0 && (inflater.needsInput() || inflater.needsDictionary())) {
                    return null;
                }
                length += n;
            }
            return Arrays.copyOf(out, length);
        } catch (DataFormatException e) {
            return null;
        } finally {
            inflater.end();
        }
    }
}
