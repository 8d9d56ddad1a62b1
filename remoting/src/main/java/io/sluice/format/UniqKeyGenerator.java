package io.sluice.format;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * Generates UNIQ_KEYs ({@link MessageIdDescriptor}) for the client, and for the broker when a message arrives
 * without one: a fixed hex prefix (host IP, pid, a per-process hash) computed once, then the milliseconds since
 * the start of the current month and a 16-bit counter.
 *
 * <p>The clock is read for every {@link #KEYS_PER_CLOCK_READ}-th key and on {@link #readClock()}; the keys in
 * between carry the latest reading, because a clock read per key is a large share of an auto-batched send's cost.
 * Callers that write keys in bulk read the clock when a burst starts (the client's accumulator when it opens a
 * batch); {@link #next()} and single-message encoding read it for each key. Two keys repeat only when the
 * 16-bit counter wraps while the latest reading stays on one millisecond, which takes 65,536 keys within one
 * millisecond, as with a clock read per key.
 *
 * <p>Thread-safe and lock-free on the common path; the month start is recomputed under this object's monitor
 * when the month rolls over.
 */
public final class UniqKeyGenerator {
    private final byte[] prefixHex;
    private final LongSupplier clockMs;
    private final ZoneId zone;
    /** Keys written with one clock reading at most (a power of two). */
    static final int KEYS_PER_CLOCK_READ = 16;

    private final AtomicInteger counter = new AtomicInteger();
    /** The latest clock reading; only ever raised. */
    private final AtomicLong latestMs = new AtomicLong();
    /** Written under this object's monitor, read by every caller. */
    private volatile long monthStartMs;
    private volatile long nextMonthStartMs;

    /**
     * @param clientAddress the client's 4 or 16 IP address bytes
     * @param pid the process id (its low 16 bits are used)
     * @param loaderHash the identity hash of the client's class loader
     * @param clockMs epoch-millisecond clock
     * @param zone time zone whose month boundaries reset the time part
     */
    public UniqKeyGenerator(byte[] clientAddress, long pid, int loaderHash, LongSupplier clockMs, ZoneId zone) {
        byte[] prefix = new byte[clientAddress.length + 6];
        System.arraycopy(clientAddress, 0, prefix, 0, clientAddress.length);
        int at = clientAddress.length;
        prefix[at++] = (byte) (pid >>> 8);
        prefix[at++] = (byte) pid;
        prefix[at++] = (byte) (loaderHash >>> 24);
        prefix[at++] = (byte) (loaderHash >>> 16);
        prefix[at++] = (byte) (loaderHash >>> 8);
        prefix[at] = (byte) loaderHash;
        this.prefixHex = new byte[prefix.length * 2];
        MessageIdDescriptor.writeHex(prefix, prefixHex, 0);
        this.clockMs = clockMs;
        this.zone = zone;
        this.counter.set((int) (System.nanoTime() & 0x7FFF));
        readClock();
    }

    /** A generator for this process: its pid, the class loader of this class, the system clock and zone. */
    public static UniqKeyGenerator forProcess(byte[] clientAddress) {
        return new UniqKeyGenerator(clientAddress, ProcessHandle.current().pid(),
                System.identityHashCode(UniqKeyGenerator.class.getClassLoader()), System::currentTimeMillis,
                ZoneId.systemDefault());
    }

    /** Characters of every key this generator makes. */
    public int keyChars() {
        return prefixHex.length + MessageIdDescriptor.UNIQ_KEY_VARYING_BYTES * 2;
    }

    /** A new key, with the time read now. */
    public String next() {
        readClock();
        byte[] out = new byte[keyChars()];
        write(out, 0);
        return new String(out, StandardCharsets.US_ASCII);
    }

    /** Reads the clock: the keys written next carry this time (or a later one). */
    public void readClock() {
        long now = clockMs.getAsLong();
        if (now >= nextMonthStartMs) {
            rollMonth(now);
        }
        latestMs.accumulateAndGet(now, Math::max);
    }

    /**
     * Writes a new key as ASCII hex into {@code out} from {@code at}; returns the index after it. Its time is the
     * latest clock reading; every {@link #KEYS_PER_CLOCK_READ}-th key reads the clock first.
     */
    public int write(byte[] out, int at) {
        int count = counter.getAndIncrement();
        if ((count & (KEYS_PER_CLOCK_READ - 1)) == 0) {
            readClock();
        }
        // A reading from before a month roll-over may still be the latest another thread saw: never below zero.
        long sinceMonthStartMs = Math.max(0, latestMs.get() - monthStartMs);
        System.arraycopy(prefixHex, 0, out, at, prefixHex.length);
        at += prefixHex.length;
        at = MessageIdDescriptor.writeHex(sinceMonthStartMs, 4, out, at);
        return MessageIdDescriptor.writeHex(count, 2, out, at);
    }

    private synchronized void rollMonth(long now) {
        if (now < nextMonthStartMs && monthStartMs != 0) {
            return;
        }
        LocalDate today = Instant.ofEpochMilli(now).atZone(zone).toLocalDate();
        LocalDate first = today.withDayOfMonth(1);
        monthStartMs = first.atStartOfDay(zone).toInstant().toEpochMilli();
        nextMonthStartMs = first.plusMonths(1).atStartOfDay(zone).toInstant().toEpochMilli();
    }
}
