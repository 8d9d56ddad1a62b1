package io.sluice.client.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.util.IllegalReferenceCountException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Body buffers come back to the free list when their last reference goes, within its byte bound. */
@Timeout(10)
class BatchBuffersTest {

    @Test
    void aReleasedBufferIsTakenAgainEmptyOnceEveryReferenceIsGone() {
        BatchBuffers buffers = new BatchBuffers(1 << 20, 1 << 20);
        ByteBuf first = buffers.take(100);
        first.writeLong(42);
        ByteBuf request = first.retainedSlice(0, 8);
        first.release();
        assertEquals(1, buffers.inUse(), "a request still holds it");
        assertNotSame(first, buffers.take(100), "not handed out while held");
        request.release();
        assertEquals(1, buffers.inUse(), "only the second buffer");
        assertThrows(IllegalReferenceCountException.class, () -> first.getByte(0), "a listed buffer refuses users");
        ByteBuf again = buffers.take(50);
        assertSame(first, again);
        assertEquals(0, again.readableBytes(), "empty");
        assertEquals(1, again.refCnt(), "one reference, the taker's");
        assertTrue(again.capacity() >= 100);
    }

    @Test
    void aBufferGrowsToWhatIsAskedAndNoFurtherThanTheMaximum() {
        BatchBuffers buffers = new BatchBuffers(4096, 1 << 20);
        ByteBuf small = buffers.take(64);
        small.release();
        ByteBuf grown = buffers.take(1000);
        assertSame(small, grown);
        assertTrue(grown.capacity() >= 1000, "grown to " + grown.capacity());
        assertThrows(IndexOutOfBoundsException.class, () -> grown.writeZero(4097));
    }

    @Test
    void aListedBufferFarLargerThanAskedIsFreedNotLent() {
        int large = 4 * BatchBuffers.OVERSIZE_MIN_BYTES;
        BatchBuffers buffers = new BatchBuffers(8 * large, 16L * large);
        ByteBuf big = buffers.take(large);
        big.release();
        assertEquals(big.capacity(), buffers.freeBytes());
        ByteBuf small = buffers.take(1000);
        assertNotSame(big, small, "a batch of a large message leaves no large buffer to small ones");
        assertEquals(0, big.refCnt(), "freed");
        assertEquals(0, buffers.freeBytes());
        small.release();
        assertSame(small, buffers.take(large / BatchBuffers.OVERSIZE_FACTOR), "a fit one is lent");
    }

    @Test
    void theFreeListKeepsNoMoreThanItsBoundAndNothingOnceClosed() {
        BatchBuffers buffers = new BatchBuffers(1 << 20, 3000);
        ByteBuf a = buffers.take(2000);
        ByteBuf b = buffers.take(2000);
        a.release();
        b.release();
        assertEquals(0, buffers.inUse());
        assertEquals(a.capacity(), buffers.freeBytes(), "the second one did not fit the bound and was freed");
        assertEquals(0, b.refCnt(), "freed for good");

        ByteBuf held = buffers.take(10);
        buffers.close();
        assertEquals(0, buffers.freeBytes());
        held.release();
        assertEquals(0, held.refCnt(), "released after the close: freed, not kept");
        assertEquals(0, buffers.freeBytes());
    }
}
