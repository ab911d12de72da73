package io.shardgate.proxy.digest;

/**
 * One digest's statistics at one moment, as SHOW SHARDGATE QUERIES and {@code /api/v1/queries} show
 * them. Times in microseconds (percentiles: the upper bound of their histogram bucket), first and
 * last seen in milliseconds since the epoch.
 *
 * @param shardsTouched the sum over its statements of the shards each ran on
 * @param shardedCount  how many of its statements ran on more than one shard
 */
public record DigestSnapshot(String digest, String text, String schema, long count, long errors, long rowsSent,
                             long rowsAffected, long shardsTouched, long shardedCount, long totalMicros, long p50Micros,
                             long p95Micros, long p99Micros, long firstSeenMillis, long lastSeenMillis) {
}
