package io.shardgate.replication.diff;

import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.function.LongSupplier;

import static java.util.Objects.requireNonNull;

/**
 * Where one table's diff spent its time, logged once it ends: opening matched snapshot sets, placing chunk bounds,
 * each server's checksum queries (index 0 the source, then the targets), the chunks' wall time and the narrowing of
 * differing ranges. Thread-safe: the servers' reads run on the diff's worker threads.
 */
final class DiffTimes {
    private final LongSupplier clock;
    private final AtomicLongArray serverNanos;
    private final AtomicLongArray serverQueries;
    private final AtomicLong openNanos = new AtomicLong();
    private final AtomicLong opens = new AtomicLong();
    private final AtomicLong boundNanos = new AtomicLong();
    private final AtomicLong chunkNanos = new AtomicLong();
    private final AtomicLong chunks = new AtomicLong();
    private final AtomicLong rows = new AtomicLong();
    private final AtomicLong minChunk = new AtomicLong(Long.MAX_VALUE);
    private final AtomicLong maxChunk = new AtomicLong();
    private final long started;

    DiffTimes(int servers, LongSupplier clock) {
        this.clock = requireNonNull(clock, "clock is null");
        this.serverNanos = new AtomicLongArray(servers);
        this.serverQueries = new AtomicLongArray(servers);
        this.started = clock.getAsLong();
    }

    long now() {
        return clock.getAsLong();
    }

    void opened(long since) {
        openNanos.addAndGet(clock.getAsLong() - since);
        opens.incrementAndGet();
    }

    void bounded(long since) {
        boundNanos.addAndGet(clock.getAsLong() - since);
    }

    /** Server {@code server} answered one query started at {@code since}. */
    void served(int server, long since) {
        serverNanos.addAndGet(server, clock.getAsLong() - since);
        serverQueries.incrementAndGet(server);
    }

    void chunk(long sourceRows, long since) {
        chunkNanos.addAndGet(clock.getAsLong() - since);
        chunks.incrementAndGet();
        rows.addAndGet(sourceRows);
        minChunk.accumulateAndGet(sourceRows, Math::min);
        maxChunk.accumulateAndGet(sourceRows, Math::max);
    }

    /** Each server's busy time so far, for {@link #chunkLine}. */
    long[] busy() {
        long[] busy = new long[serverNanos.length()];
        for (int i = 0; i < busy.length; i++) {
            busy[i] = serverNanos.get(i);
        }
        return busy;
    }

    /** One chunk: its rows, wall time, and each server's busy time in it (since {@code before}, from {@link #busy}). */
    String chunkLine(long sourceRows, long since, long[] before) {
        StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "chunk of %d rows in %.0f ms, servers busy", sourceRows,
                (clock.getAsLong() - since) / 1e6));
        for (int i = 0; i < before.length; i++) {
            line.append(String.format(Locale.ROOT, " %.0f", (serverNanos.get(i) - before[i]) / 1e6));
        }
        return line.append(" ms").toString();
    }

    long opens() {
        return opens.get();
    }

    /** One line: e.g. {@code 500000 rows in 12 chunks (10000..80000) 3.1 s: opens 1 = 0.9 s, bounds 0.0 s, ...}. */
    String summary(List<String> servers) {
        StringBuilder line = new StringBuilder(String.format(Locale.ROOT,
                "%d rows in %d chunks (%d..%d rows) in %.2f s: %d snapshot sets opened in %.2f s, bounds %.2f s, chunks %.2f s;"
                        + " busy per server (queries):", rows.get(), chunks.get(), chunks.get() == 0 ? 0 : minChunk.get(),
                maxChunk.get(), seconds(clock.getAsLong() - started), opens.get(), seconds(openNanos.get()),
                seconds(boundNanos.get()), seconds(chunkNanos.get())));
        for (int i = 0; i < serverNanos.length(); i++) {
            String name = i < servers.size() ? servers.get(i) : "server " + i;
            line.append(String.format(Locale.ROOT, " %s %.2f s (%d)", name, seconds(serverNanos.get(i)), serverQueries.get(i)));
        }
        return line.toString();
    }

    private static double seconds(long nanos) {
        return nanos / 1e9;
    }
}
