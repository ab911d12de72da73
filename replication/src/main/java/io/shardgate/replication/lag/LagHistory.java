package io.shardgate.replication.lag;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;

/**
 * One replica's recent lag, one sample a second: a ring of {@code capacity} samples (600, ten minutes,
 * by default), oldest overwritten first. Its probe feeds it from its polls ({@link #due} then {@link #record});
 * the admin page reads it ({@link #samples}).
 *
 * <p>A sample is the lag the monitor reported at the first poll of a wall-clock second; the other polls of that
 * second add nothing (and allocate nothing: the ring is two primitive arrays made once). A second with no poll
 * (a poll hung until its timeout) has no sample, so a chart shows the gap. Times are epoch milliseconds: the
 * page draws them on the operator's clock, while the lag itself is measured on the proxy's monotonic clock.
 *
 * <p>Written by one probe's thread, read by any: every method takes this object's lock, briefly.
 */
public final class LagHistory {
    /** Ten minutes of one sample a second. */
    public static final int DEFAULT_CAPACITY = 600;
    /** The lag of a sample that had none: the replica was unknown, infinitely stale. */
    public static final long UNKNOWN = -1;

    private final long[] epochMillis;
    private final long[] lagMillis;
    /** Where the next sample goes. */
    private int next;
    private int size;

    public LagHistory(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity: " + capacity + " (expected: >= 1)");
        }
        this.epochMillis = new long[capacity];
        this.lagMillis = new long[capacity];
    }

    /** One sample of a replica's lag: empty when it was unknown (infinitely stale). */
    public record Sample(long epochMillis, OptionalLong lagMillis) {
    }

    /** True when a sample taken at {@code now} (epoch ms) would start a new second: the newest is from an earlier one. */
    public synchronized boolean due(long now) {
        return size == 0 || Math.floorDiv(now, 1000) > Math.floorDiv(newest(), 1000);
    }

    /**
     * Keeps {@code lag} (ms, or {@link #UNKNOWN}) as the sample of {@code now}'s second, overwriting the oldest when
     * full. Ignored when that second (or a later one: the wall clock stepped back) already has its sample.
     */
    public synchronized void record(long now, long lag) {
        if (lag < UNKNOWN) {
            throw new IllegalArgumentException("lag: " + lag + " ms (expected: >= 0, or UNKNOWN)");
        }
        if (!due(now)) {
            return;
        }
        epochMillis[next] = now;
        lagMillis[next] = lag;
        next = (next + 1) % epochMillis.length;
        size = Math.min(size + 1, epochMillis.length);
    }

    /** The samples, oldest first. */
    public synchronized List<Sample> samples() {
        List<Sample> samples = new ArrayList<>(size);
        int first = Math.floorMod(next - size, epochMillis.length);
        for (int i = 0; i < size; i++) {
            int at = (first + i) % epochMillis.length;
            long lag = lagMillis[at];
            samples.add(new Sample(epochMillis[at], lag == UNKNOWN ? OptionalLong.empty() : OptionalLong.of(lag)));
        }
        return samples;
    }

    public int capacity() {
        return epochMillis.length;
    }

    private long newest() {
        return epochMillis[Math.floorMod(next - 1, epochMillis.length)];
    }
}
