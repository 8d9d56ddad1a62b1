package io.sluice.broker.handler;

import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.temporal.ChronoUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.agrona.concurrent.EpochClock;

/**
 * Generates {@code UNIQ_KEY} values for single messages that arrive without one, in the client's format
 * (docs/wire-protocol.md#message-ids): uppercase hex of
 * <pre>
 *   bytes   field
 *   4|16    the broker's IP address
 *   2       low 16 bits of the process id
 *   4       a per-process random value (the client uses its class loader's hash)
 *   4       milliseconds since the start of the current month (local time)
 *   2       a counter
 * </pre>
 * 32 hex characters for IPv4, 56 for IPv6. Keys are unique within the process as long as fewer than 65,536 are
 * generated per millisecond.
 *
 * <p>Thread-safe: the counter is atomic; the month window is an immutable pair replaced when the month ends.
 */
final class UniqKeyGenerator {

    private static final char[] HEX = "0123456789ABCDEF".toCharArray();

    private final String prefix;
    private final EpochClock clock;
    private final ZoneId zone;
    private final AtomicInteger counter = new AtomicInteger();
    private volatile Month month;

    /** The current month's bounds in epoch ms. */
    private record Month(long startMs, long nextStartMs) {
    }

    UniqKeyGenerator(InetAddress address, EpochClock clock, ZoneId zone) {
        byte[] ip = address.getAddress();
        ByteBuffer fixed = ByteBuffer.allocate(ip.length + 2 + 4);
        fixed.put(ip).putShort((short) ProcessHandle.current().pid()).putInt(System.identityHashCode(this));
        this.prefix = hex(fixed.array());
        this.clock = clock;
        this.zone = zone;
        this.month = monthOf(clock.time());
    }

    /** A fresh key. */
    String next() {
        long nowMs = clock.time();
        Month m = month;
        if (nowMs >= m.nextStartMs() || nowMs < m.startMs()) {
            m = monthOf(nowMs);
            month = m;
        }
        ByteBuffer variable = ByteBuffer.allocate(6);
        variable.putInt((int) (nowMs - m.startMs())).putShort((short) counter.getAndIncrement());
        return prefix + hex(variable.array());
    }

    private Month monthOf(long nowMs) {
        ZonedDateTime start = Instant.ofEpochMilli(nowMs).atZone(zone).withDayOfMonth(1).truncatedTo(ChronoUnit.DAYS);
        return new Month(start.toInstant().toEpochMilli(), start.plusMonths(1).toInstant().toEpochMilli());
    }

    private static String hex(byte[] bytes) {
        char[] out = new char[bytes.length * 2];
        for (int i = 0; i < bytes.length; i++) {
            out[2 * i] = HEX[(bytes[i] >> 4) & 0xF];
            out[2 * i + 1] = HEX[bytes[i] & 0xF];
        }
        return new String(out);
    }
}
