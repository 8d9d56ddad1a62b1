package io.sluice.benchmark.store;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * What the machine charges for the page-cache pages a CommitLog append needs, measured with the file system and
 * memory the broker would use, in the same run: every round writes {@code gib} GiB into a new sparse file in
 * 32 KiB pieces (an append's size with 1 KiB messages in 32 KiB batches), then writes the same range again.
 * The first pass needs a new page-cache page for every 4 KiB; the second finds them all in the cache. Both
 * passes are timed by the writing thread's CPU time, so the difference is what fresh pages cost the writer
 * (the kernel's allocation, the file system's block reservation, and on a virtual machine whose free memory is
 * handed back to the host, the host's fault on first touch).
 *
 * <p>Why it matters for the producer comparison ({@code ProducerComparison}): both producers pay the broker's
 * page-cache cost, and on a machine where that cost is high it narrows their ratio.
 *
 * <pre>
 *   java -cp benchmark/target/benchmarks.jar io.sluice.benchmark.store.PageWriteCost DIR [gib] [rounds]
 * </pre>
 *
 * <p>{@code DIR} must exist; the file is deleted after every round. Give the machine room: the file stays in the
 * page cache until it is deleted.
 */
public final class PageWriteCost {
    static final int PIECE_BYTES = 32 * 1024;
    private static final long GIB = 1L << 30;

    private PageWriteCost() {
    }

    public static void main(String[] args) throws IOException {
        if (args.length < 1) {
            throw new IllegalArgumentException("usage: PageWriteCost DIR [gib] [rounds]");
        }
        Path dir = Path.of(args[0]);
        int gib = args.length > 1 ? Integer.parseInt(args[1]) : 4;
        int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 3;
        if (!Files.isDirectory(dir) || gib <= 0 || rounds <= 0) {
            throw new IllegalArgumentException("need an existing directory, gib > 0 and rounds > 0; was " + dir
                    + ", " + gib + ", " + rounds);
        }
        ByteBuffer piece = ByteBuffer.allocateDirect(PIECE_BYTES);
        for (int i = 0; i < PIECE_BYTES; i++) {
            piece.put(i, (byte) (i * 31 + 7));
        }
        long bytes = gib * GIB;
        System.out.printf("%-6s %22s %22s %7s%n", "round", "new pages ns/KiB", "cached pages ns/KiB", "ratio");
        for (int round = 1; round <= rounds; round++) {
            Path file = dir.resolve("page-write-cost-" + round);
            try (FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE_NEW,
                    StandardOpenOption.WRITE, StandardOpenOption.SPARSE)) {
                long firstNs = writeAll(channel, piece, bytes);
                long againNs = writeAll(channel, piece, bytes);
                double kib = bytes / 1024.0;
                System.out.printf("%-6d %22.0f %22.0f %7.2f%n", round, firstNs / kib, againNs / kib,
                        (double) firstNs / againNs);
            } finally {
                Files.deleteIfExists(file);
            }
        }
    }

    /** Writes {@code [0, bytes)} of {@code channel} in pieces; returns this thread's CPU nanoseconds for it. */
    static long writeAll(FileChannel channel, ByteBuffer piece, long bytes) throws IOException {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long startNs = threads.getCurrentThreadCpuTime();
        for (long at = 0; at < bytes; at += PIECE_BYTES) {
            piece.clear().limit((int) Math.min(PIECE_BYTES, bytes - at));
            long position = at;
            while (piece.hasRemaining()) {
                position += channel.write(piece, position);
            }
        }
        return threads.getCurrentThreadCpuTime() - startNs;
    }
}
