package io.sluice.remoting.protocol;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.CompositeByteBuf;
import io.netty.buffer.Unpooled;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntPredicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns commands into frames and frames into commands ({@link FrameDescriptor}), for both serialize types.
 * A command is encoded with its own {@link RemotingCommand#serializeType()}. Thread-safe; its only state is a
 * failure counter.
 */
public final class FrameCodec {
    private static final Logger LOG = LoggerFactory.getLogger(FrameCodec.class);
    /**
     * Bodies below this size are always copied next to the header. Larger ones are copied too when every part is
     * on the heap: the socket needs direct memory, so the transport would copy them anyway, and one copy into the
     * frame's own (pooled, direct) buffer spares it a composite with one component per part (an auto-batch of
     * 100-byte messages has hundreds). Larger bodies with direct parts (mapped log slices) are sent as a
     * composite, uncopied.
     */
    private static final int COPY_BODY_BELOW_BYTES = 1024;
    /** Room for a typical header, so that most encodes need no buffer growth. */
    private static final int HEADER_ESTIMATE_BYTES = 256;

    private final int maxFrameBytes;
    private final IntPredicate bodyInFrame;
    /** Bodies sent from memory because their files could not be read. */
    private final AtomicLong fileReadFailures = new AtomicLong();

    /**
     * A codec that copies every decoded body out of its frame.
     *
     * @param maxFrameBytes limit on a whole frame, length field included; at least 64 bytes
     */
    public FrameCodec(int maxFrameBytes) {
        this(maxFrameBytes, code -> false);
    }

    /**
     * @param maxFrameBytes limit on a whole frame, length field included; at least 64 bytes
     * @param bodyInFrame   the request codes whose decoded bodies stay in the frame's buffer, held by reference
     *                      count ({@link RemotingCommand#setBody(ByteBuf)}) rather than copied: the decoded command's
     *                      owner must release it ({@link RemotingCommand#releaseBody()})
     */
    public FrameCodec(int maxFrameBytes, IntPredicate bodyInFrame) {
        if (maxFrameBytes < 64) {
            throw new IllegalArgumentException("maxFrameBytes " + maxFrameBytes + " is below 64");
        }
        this.maxFrameBytes = maxFrameBytes;
        this.bodyInFrame = bodyInFrame;
    }

    /** Bodies that had to be sent from memory because their files could not be read. */
    public long fileReadFailures() {
        return fileReadFailures.get();
    }

    /** Limit on a whole frame, length field included. */
    public int maxFrameBytes() {
        return maxFrameBytes;
    }

    /**
     * Checks the value of a frame's length field.
     *
     * @throws FrameException naming the value when it is below 4 or the frame would exceed the limit
     */
    public void checkTotalLength(int totalLength) throws FrameException {
        if (totalLength < FrameDescriptor.HEADER_WORD_BYTES) {
            throw new FrameException("frame length " + totalLength + " is smaller than the 4-byte header word");
        }
        if ((long) totalLength + FrameDescriptor.LENGTH_FIELD_BYTES > maxFrameBytes) {
            throw new FrameException("frame of " + ((long) totalLength + FrameDescriptor.LENGTH_FIELD_BYTES)
                    + " bytes exceeds the limit of " + maxFrameBytes);
        }
    }

    /**
     * Encodes {@code command} into a complete frame, length field included. Large bodies with a direct part are
     * not copied: the returned buffer wraps them. A body held by reference count ({@link
     * RemotingCommand#setBody(io.netty.buffer.ByteBuf)}) is taken from the command: the frame holds it from then on,
     * and it is released with the frame, or here when encoding fails. The caller owns (and must release or write)
     * the returned buffer.
     *
     * @throws FrameException when the frame would exceed the limit
     * @throws IllegalArgumentException when a field cannot be represented in the command's serialize type
     */
    public ByteBuf encode(RemotingCommand command, ByteBufAllocator allocator) throws FrameException {
        return encode(command, allocator, true);
    }

    /**
     * {@link #encode(RemotingCommand, ByteBufAllocator)}, reading a body that lies in files
     * ({@link RemotingCommand#setBody(ByteBuffer[], FileSlice[])}) into the frame only when {@code readFiles} holds;
     * else the body's parts are wrapped as usual. The transport passes false while the connection's outbound buffer is
     * full, so that frames waiting there hold no copy of their body: read from files, a consumer that stops reading
     * would otherwise pin a body's worth of memory per waiting response.
     */
    public ByteBuf encode(RemotingCommand command, ByteBufAllocator allocator, boolean readFiles)
            throws FrameException {
        FileSlice[] files = command.bodyFiles();
        if (readFiles && files.length > 0) {
            Optional<ByteBuf> frame = encodeFromFiles(command, files, allocator);
            if (frame.isPresent()) {
                return frame.get();
            }
        }
        ByteBuf owned = command.takeOwnedBody();
        ByteBuf frame = null;
        try {
            int bodyBytes = owned != null ? owned.readableBytes() : command.bodyBytes();
            // Before allocating: a copied body would otherwise take that much pooled memory first.
            checkTotalLength((int) Math.min(Integer.MAX_VALUE, (long) FrameDescriptor.HEADER_WORD_BYTES + bodyBytes));
            ByteBuffer[] parts = command.bodyParts();
            boolean copyBody = bodyBytes < COPY_BODY_BELOW_BYTES || (owned == null && allOnHeap(parts));
            frame = allocator.buffer(HEADER_ESTIMATE_BYTES + (copyBody ? bodyBytes : 0));
            writeHeader(command, bodyBytes, frame);
            if (owned == null) {
                return appendBody(frame, parts, copyBody, allocator);
            }
            ByteBuf whole = appendOwnedBody(frame, owned, copyBody, allocator);
            owned = null;
            return whole;
        } catch (FrameException | RuntimeException | Error e) {
            if (frame != null) {
                frame.release();
            }
            if (owned != null) {
                owned.release();
            }
            throw e;
        }
    }

    /**
     * The frame of a command whose body also lies in files ({@link RemotingCommand#setBody(ByteBuffer[],
     * FileSlice[])}): header and body in one buffer of {@code allocator}, the body copied from the files by
     * positional reads, so that the frame goes out in one write and no page of the body's memory views is touched.
     *
     * @return the frame, or empty when a file could not be read (counted in {@link #fileReadFailures()}, logged now
     *         and then): then encode from the body's parts, which hold the same bytes
     */
    private Optional<ByteBuf> encodeFromFiles(RemotingCommand command, FileSlice[] files, ByteBufAllocator allocator)
            throws FrameException {
        int bodyBytes = command.bodyBytes();
        checkTotalLength((int) Math.min(Integer.MAX_VALUE, (long) FrameDescriptor.HEADER_WORD_BYTES + bodyBytes));
        ByteBuf frame = allocator.buffer(HEADER_ESTIMATE_BYTES + bodyBytes);
        try {
            writeHeader(command, bodyBytes, frame);
            for (FileSlice file : files) {
                for (int read = 0; read < file.length(); ) {
                    int n = frame.writeBytes(file.channel(), file.position() + read, file.length() - read);
                    if (n < 0) {
                        throw new EOFException(file + " ends before its last byte");
                    }
                    read += n;
                }
            }
            return Optional.of(frame);
        } catch (IOException e) {
            frame.release();
            long failures = fileReadFailures.incrementAndGet();
            if (failures == 1 || failures % 1000 == 0) {
                LOG.warn("could not read a body from its files; sent it from memory ({} times so far)", failures, e);
            }
            return Optional.empty();
        } catch (FrameException | RuntimeException | Error e) {
            frame.release();
            throw e;
        }
    }

    /**
     * Writes the length field, header word and header of a frame whose body has {@code bodyBytes} bytes, from
     * {@code frame}'s writer index (the frame's start).
     */
    private void writeHeader(RemotingCommand command, int bodyBytes, ByteBuf frame) throws FrameException {
        int start = frame.writerIndex();
        frame.writeLong(0);
        int headerLength;
        if (command.serializeType() == SerializeType.ROCKETMQ) {
            headerLength = BinaryHeaderCodec.encode(command, frame);
        } else {
            headerLength = JsonHeaderCodec.encode(command, frame);
        }
        long totalLength = (long) FrameDescriptor.HEADER_WORD_BYTES + headerLength + bodyBytes;
        if (totalLength > Integer.MAX_VALUE) {
            throw new FrameException("frame of " + totalLength + " bytes exceeds the limit of " + maxFrameBytes);
        }
        checkTotalLength((int) totalLength);
        frame.setInt(start, (int) totalLength);
        frame.setInt(start + FrameDescriptor.LENGTH_FIELD_BYTES,
                FrameDescriptor.headerWord(command.serializeType(), headerLength));
    }

    /** The frame followed by {@code owned}, which it takes over: copied and released when small, else attached. */
    private static ByteBuf appendOwnedBody(ByteBuf frame, ByteBuf owned, boolean copy, ByteBufAllocator allocator) {
        if (copy) {
            frame.writeBytes(owned, owned.readerIndex(), owned.readableBytes());
            owned.release();
            return frame;
        }
        return allocator.compositeBuffer(2).addComponent(true, frame).addComponent(true, owned);
    }

    private static boolean allOnHeap(ByteBuffer[] parts) {
        for (ByteBuffer part : parts) {
            if (part.isDirect()) {
                return false;
            }
        }
        return true;
    }

    private static ByteBuf appendBody(ByteBuf frame, ByteBuffer[] parts, boolean copy, ByteBufAllocator allocator) {
        if (parts.length == 0) {
            return frame;
        }
        if (copy) {
            for (ByteBuffer part : parts) {
                if (part.hasArray()) { // no duplicate per part: auto-batched bodies have one part per message
                    frame.writeBytes(part.array(), part.arrayOffset() + part.position(), part.remaining());
                } else {
                    frame.writeBytes(part.duplicate());
                }
            }
            return frame;
        }
        CompositeByteBuf composite = allocator.compositeBuffer(1 + parts.length);
        composite.addComponent(true, frame);
        for (ByteBuffer part : parts) {
            composite.addComponent(true, Unpooled.wrappedBuffer(part.duplicate()));
        }
        return composite;
    }

    /**
     * Decodes one frame whose length field has already been read: {@code frame}'s readable bytes are exactly
     * {@code totalLength} bytes starting at the header word. The body is copied, so the caller may release
     * {@code frame} afterwards, except for the request codes given as {@code bodyInFrame}: their body is a retained
     * slice of {@code frame}, held by the command ({@link RemotingCommand#setBody(ByteBuf)}). Advances the reader
     * index to the end of the frame.
     *
     * @throws FrameException naming the bad value when the frame is inconsistent or its header unparseable
     */
    public RemotingCommand decode(ByteBuf frame) throws FrameException {
        return decode(frame, true);
    }

    /**
     * {@link #decode(ByteBuf)}, copying every body when {@code mayHoldFrame} is false: for a frame whose retention
     * would pin more memory than its own bytes (a slice of a buffer gathering many reads). A {@code bodyInFrame}
     * code's body is then copied into a buffer of the frame's allocator, which the command holds the same way.
     */
    public RemotingCommand decode(ByteBuf frame, boolean mayHoldFrame) throws FrameException {
        int totalLength = frame.readableBytes();
        checkTotalLength(totalLength);
        int headerWord = frame.readInt();
        int headerLength = FrameDescriptor.headerLength(headerWord);
        if (headerLength > totalLength - FrameDescriptor.HEADER_WORD_BYTES) {
            throw new FrameException("header length " + headerLength + " exceeds the frame's "
                    + (totalLength - FrameDescriptor.HEADER_WORD_BYTES) + " bytes after the header word");
        }
        SerializeType type = SerializeType.fromCode(FrameDescriptor.serializeTypeCode(headerWord));
        RemotingCommand command = new RemotingCommand().setVersion(0).setSerializeType(type);
        if (type == SerializeType.ROCKETMQ) {
            decodeBinary(frame, headerLength, command);
        } else {
            decodeJson(frame, headerLength, command);
        }
        int bodyLength = frame.readableBytes();
        if (bodyLength > 0 && !command.isResponse() && bodyInFrame.test(command.code())) {
            // Not held, the body is copied into a buffer of the frame's allocator (readBytes), not a new byte[]:
            // one of an auto-batch's size would be zeroed before the copy and left to the collector, every frame.
            command.setBody(mayHoldFrame ? frame.readRetainedSlice(bodyLength) : frame.readBytes(bodyLength));
        } else if (bodyLength > 0) {
            byte[] body = new byte[bodyLength];
            frame.readBytes(body);
            command.setBody(body);
        }
        return command;
    }

    private static void decodeBinary(ByteBuf frame, int headerLength, RemotingCommand command)
            throws FrameException {
        BinaryHeaderCodec.decode(heapHeader(frame, headerLength), headerLength, command);
    }

    private static void decodeJson(ByteBuf frame, int headerLength, RemotingCommand command) throws FrameException {
        if (headerLength == 0) {
            throw new FrameException("JSON header length is 0");
        }
        ByteBuf header = heapHeader(frame, headerLength);
        JsonHeaderCodec.decode(header.array(), header.arrayOffset() + header.readerIndex(), headerLength, command);
    }

    /**
     * The next {@code headerLength} bytes of {@code frame} as an array-backed buffer, the frame's reader index moved
     * past them: a view when the frame is on the heap, else a copy. Both header codecs read many small fields; from a
     * frame gathered from socket reads (a composite of direct buffers) each would cost a component lookup and a
     * copy of its own.
     */
    private static ByteBuf heapHeader(ByteBuf frame, int headerLength) {
        if (frame.hasArray()) {
            return frame.readSlice(headerLength);
        }
        byte[] header = new byte[headerLength];
        frame.readBytes(header);
        return Unpooled.wrappedBuffer(header);
    }
}
