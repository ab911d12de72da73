package io.shardgate.replication.copy;

import java.time.Duration;

/**
 * How many rows the next chunk reads: aimed at {@code target} time per chunk from the rate the
 * last chunks measured, never above {@code cap} (the target engine's row-lock cap, such as MyRocks'
 * {@code rocksdb_max_row_locks}, less a margin), never below {@code min}, and growing at most
 * fourfold per chunk, so one fast chunk of short rows does not jump straight to a huge one.
 * The rate is smoothed (each measurement weighs half).
 *
 * <p>Worked example: target 0.5 s, first chunk 1,000 rows in 0.05 s (20,000 rows/s): next
 * {@code min(4 × 1,000, 20,000 × 0.5)} = 4,000; at a steady 20,000 rows/s it settles at 10,000.
 * Pure: no clock, no I/O.
 */
public final class ChunkSizer {
    private final Duration target;
    private final int min;
    private final int cap;
    private int size;
    private double rowsPerSecond = -1;

    public ChunkSizer(Duration target, int initial, int min, int cap) {
        if (target.isNegative() || target.isZero()) {
            throw new IllegalArgumentException("target must be positive: " + target);
        }
        if (min < 1 || cap < min) {
            throw new IllegalArgumentException("need 1 <= min <= cap; min " + min + ", cap " + cap);
        }
        this.target = target;
        this.min = min;
        this.cap = cap;
        this.size = clamp(initial);
    }

    /** The cap for a target engine: its row-lock limit less a tenth, or {@code fallback} without one. */
    public static int capFor(java.util.OptionalLong rowLockLimit, int fallback) {
        if (rowLockLimit.isEmpty() || rowLockLimit.getAsLong() <= 0) {
            return fallback;
        }
        return (int) Math.max(1, Math.min(fallback, rowLockLimit.getAsLong() - rowLockLimit.getAsLong() / 10));
    }

    public int next() {
        return size;
    }

    /** Records that {@code rows} rows took {@code elapsed}; adjusts the next size. */
    public void observe(int rows, Duration elapsed) {
        if (rows <= 0) {
            return;
        }
        double seconds = Math.max(elapsed.toNanos(), 1_000_000L) / 1e9;
        double measured = rows / seconds;
        rowsPerSecond = rowsPerSecond < 0 ? measured : (rowsPerSecond + measured) / 2;
        double wanted = rowsPerSecond * target.toNanos() / 1e9;
        size = clamp((long) Math.min(wanted, 4.0 * rows));
    }

    /** The smoothed rate; negative before the first measurement. */
    public double rowsPerSecond() {
        return rowsPerSecond;
    }

    private int clamp(long rows) {
        return (int) Math.max(min, Math.min(cap, rows));
    }
}
