package io.shardgate.proxy.digest;

import java.util.concurrent.atomic.LongAdder;

import static java.util.Objects.requireNonNull;

/**
 * One digest's statistics, updated by every connection that runs one of its statements without a
 * lock: {@link LongAdder} counters and a {@link LatencyHistogram}. Read by {@link #snapshot()}.
 */
public final class DigestStats {
    private final long hash;
    private final String text;
    private final String schema;
    private final long firstSeenMillis;
    private volatile long lastSeenMillis;
    private final LongAdder count = new LongAdder();
    private final LongAdder errors = new LongAdder();
    private final LongAdder rowsSent = new LongAdder();
    private final LongAdder rowsAffected = new LongAdder();
    private final LongAdder shardsTouched = new LongAdder();
    private final LongAdder shardedCount = new LongAdder();
    private final LongAdder totalNanos = new LongAdder();
    private final LatencyHistogram latency = new LatencyHistogram();

    DigestStats(long hash, String text, String schema, long nowMillis) {
        this.hash = hash;
        this.text = requireNonNull(text, "text is null");
        this.schema = requireNonNull(schema, "schema is null");
        this.firstSeenMillis = nowMillis;
        this.lastSeenMillis = nowMillis;
    }

    /**
     * One statement of this digest ended after {@code nanos}: with an error or not, the rows it sent
     * and affected, and the shards it ran on (more than one: a sharded statement).
     */
    public void record(long nanos, boolean error, long rows, long affected, int shards, long nowMillis) {
        count.increment();
        totalNanos.add(nanos);
        latency.record(nanos);
        if (error) {
            errors.increment();
        }
        if (rows != 0) {
            rowsSent.add(rows);
        }
        if (affected != 0) {
            rowsAffected.add(affected);
        }
        if (shards != 0) {
            shardsTouched.add(shards);
            if (shards > 1) {
                shardedCount.increment();
            }
        }
        // Written at most once a millisecond, so that connections running the same digest rarely share a write.
        if (lastSeenMillis != nowMillis) {
            lastSeenMillis = nowMillis;
        }
    }

    public long hash() {
        return hash;
    }

    public String text() {
        return text;
    }

    public String schema() {
        return schema;
    }

    public long count() {
        return count.sum();
    }

    public long totalNanos() {
        return totalNanos.sum();
    }

    public long errors() {
        return errors.sum();
    }

    public LatencyHistogram latency() {
        return latency;
    }

    /** The digest as {@link #hash()} prints: 16 hex digits, or {@code (overflow)} for the overflow entry. */
    public String id() {
        return hash == 0 ? QueryDigests.OVERFLOW : String.format("%016x", hash);
    }

    public DigestSnapshot snapshot() {
        return new DigestSnapshot(id(), text, schema, count.sum(), errors.sum(), rowsSent.sum(), rowsAffected.sum(),
                shardsTouched.sum(), shardedCount.sum(), totalNanos.sum() / 1000, latency.percentile(0.50),
                latency.percentile(0.95), latency.percentile(0.99), firstSeenMillis, lastSeenMillis);
    }
}
