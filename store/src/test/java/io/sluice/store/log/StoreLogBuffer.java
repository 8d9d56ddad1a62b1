package io.sluice.store.log;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * A heap buffer that logs every store made through it, in program order, as the bytes it left behind: replaying
 * a prefix of the log (and part of the next store) onto zeros rebuilds what a crash at that moment would have
 * left in the page cache. Stores through a method not overridden here are missing from the log, which
 * {@link #replayAll()} lets a test detect.
 *
 * <p>Not thread-safe; one test thread.
 */
final class StoreLogBuffer extends UnsafeBuffer {

    /** One store: the bytes at {@code index} just after it. */
    record Store(int index, byte[] bytes) {
    }

    private final List<Store> stores = new ArrayList<>();

    StoreLogBuffer(int capacity) {
        super(new byte[capacity]);
    }

    List<Store> stores() {
        return stores;
    }

    /** Zeros, then every logged store: equals the buffer's contents when every store was logged. */
    byte[] replayAll() {
        byte[] out = new byte[capacity()];
        for (Store s : stores) {
            System.arraycopy(s.bytes(), 0, out, s.index(), s.bytes().length);
        }
        return out;
    }

    private void log(int index, int length) {
        byte[] after = new byte[length];
        getBytes(index, after);
        stores.add(new Store(index, after));
    }

    @Override
    public void putByte(int index, byte value) {
        super.putByte(index, value);
        log(index, Byte.BYTES);
    }

    @Override
    public void putShort(int index, short value, ByteOrder byteOrder) {
        super.putShort(index, value, byteOrder);
        log(index, Short.BYTES);
    }

    @Override
    public void putShort(int index, short value) {
        super.putShort(index, value);
        log(index, Short.BYTES);
    }

    @Override
    public void putInt(int index, int value, ByteOrder byteOrder) {
        super.putInt(index, value, byteOrder);
        log(index, Integer.BYTES);
    }

    @Override
    public void putInt(int index, int value) {
        super.putInt(index, value);
        log(index, Integer.BYTES);
    }

    @Override
    public void putIntOrdered(int index, int value) {
        super.putIntOrdered(index, value);
        log(index, Integer.BYTES);
    }

    @Override
    public void putIntVolatile(int index, int value) {
        super.putIntVolatile(index, value);
        log(index, Integer.BYTES);
    }

    @Override
    public void putLong(int index, long value, ByteOrder byteOrder) {
        super.putLong(index, value, byteOrder);
        log(index, Long.BYTES);
    }

    @Override
    public void putLong(int index, long value) {
        super.putLong(index, value);
        log(index, Long.BYTES);
    }

    @Override
    public void putBytes(int index, byte[] src) {
        super.putBytes(index, src);
        log(index, src.length);
    }

    @Override
    public void putBytes(int index, byte[] src, int offset, int length) {
        super.putBytes(index, src, offset, length);
        log(index, length);
    }

    @Override
    public void putBytes(int index, ByteBuffer srcBuffer, int length) {
        super.putBytes(index, srcBuffer, length);
        log(index, length);
    }

    @Override
    public void putBytes(int index, ByteBuffer srcBuffer, int srcIndex, int length) {
        super.putBytes(index, srcBuffer, srcIndex, length);
        log(index, length);
    }

    @Override
    public void putBytes(int index, DirectBuffer srcBuffer, int srcIndex, int length) {
        super.putBytes(index, srcBuffer, srcIndex, length);
        log(index, length);
    }

    @Override
    public int putNaturalLongAscii(int index, long value) {
        int length = super.putNaturalLongAscii(index, value);
        log(index, length);
        return length;
    }

    @Override
    public void setMemory(int index, int length, byte value) {
        super.setMemory(index, length, value);
        log(index, length);
    }
}
