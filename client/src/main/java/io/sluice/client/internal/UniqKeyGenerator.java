package io.sluice.client.internal;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongSupplier;

/**
 * Generates UNIQ_KEYs ({@link MessageIdDescriptor}): a fixed hex prefix (client IP, pid, class-loader hash)
 * computed once, then the milliseconds since the start of the current month and a 16-bit counter.
 *
 * <p>Thread-safe and lock-free on the common path; the month start is recomputed under this object's monitor
 * when the month rolls over.
 */
public final class UniqKeyGenerator {
    private final byte[] prefixHex;
    private final LongSupplier clockMs;
    private final ZoneId zone;
    private final AtomicInteger counter = new AtomicInteger();
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
        rollMonth(clockMs.getAsLong());
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

    /** A new key. */
    public String next() {
        byte[] out = new byte[keyChars()];
        write(out, 0);
        return new String(out, StandardCharsets.US_ASCII);
    }

    /** Writes a new key as ASCII hex into {@code out} from {@code at}; returns the index after it. */
    public int write(byte[] out, int at) {
        long now = clockMs.getAsLong();
        if (now >= nextMonthStartMs) {
            rollMonth(now);
        }
        System.arraycopy(prefixHex, 0, out, at, prefixHex.length);
        at += prefixHex.length;
        at = MessageIdDescriptor.writeHex(now - monthStartMs, 4, out, at);
        return MessageIdDescriptor.writeHex(counter.getAndIncrement(), 2, out, at);
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
