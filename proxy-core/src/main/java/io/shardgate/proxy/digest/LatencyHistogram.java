package io.shardgate.proxy.digest;

import java.util.concurrent.atomic.AtomicLongArray;

/**
 * A lock-free latency histogram in microseconds, log-linear: below 4 µs one bucket per microsecond,
 * then four buckets per power of two (each at most 25% wide) up to 2²⁶ µs (67 s); one last bucket
 * takes everything longer. 101 buckets in one {@link AtomicLongArray}: recording is one atomic
 * increment; percentiles read the buckets without stopping writers (a snapshot may be a few
 * counts behind).
 */
public final class LatencyHistogram {
    static final int BUCKETS = 101;
    private static final int LINEAR = 4;
    private static final int SUB_BITS = 2;

    private final AtomicLongArray counts = new AtomicLongArray(BUCKETS);

    /** Records one latency of {@code nanos}. */
    public void record(long nanos) {
        counts.getAndIncrement(bucket(Math.max(0, nanos) / 1000));
    }

    /** The bucket of a latency of {@code micros}. */
    static int bucket(long micros) {
        if (micros < LINEAR) {
            return (int) micros;
        }
        int exponent = 63 - Long.numberOfLeadingZeros(micros);
        int index = LINEAR + (exponent - SUB_BITS) * LINEAR + (int) ((micros >>> (exponent - SUB_BITS)) & (LINEAR - 1));
        return Math.min(index, BUCKETS - 1);
    }

    /** The smallest latency, in microseconds, above every latency of bucket {@code index} (the last: its lower bound). */
    static long upperBound(int index) {
        if (index < LINEAR) {
            return index + 1;
        }
        int shift = (index - LINEAR) / LINEAR;
        long mantissa = LINEAR + (index - LINEAR) % LINEAR;
        return index == BUCKETS - 1 ? mantissa << shift : (mantissa + 1) << shift;
    }

    /**
     * The {@code quantile} (0..1) in microseconds: the upper bound of the bucket holding that rank,
     * so at most 25% above the true value; 0 when nothing was recorded.
     */
    public long percentile(double quantile) {
        long[] snapshot = new long[BUCKETS];
        long total = 0;
        for (int i = 0; i < BUCKETS; i++) {
            snapshot[i] = counts.get(i);
            total += snapshot[i];
        }
        if (total == 0) {
            return 0;
        }
        long rank = Math.max(1, (long) Math.ceil(quantile * total));
        long seen = 0;
        for (int i = 0; i < BUCKETS; i++) {
            seen += snapshot[i];
            if (seen >= rank) {
                return upperBound(i);
            }
        }
        return upperBound(BUCKETS - 1);
    }
}
