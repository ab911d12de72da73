package io.shardgate.proxy.digest;

import io.shardgate.router.classify.StatementDigest;

import static java.util.Objects.requireNonNull;

/**
 * One client connection's view of the {@link QueryDigests}: {@link #start} when a statement begins,
 * {@link #finish} (or {@link #error} then {@link #end}) when its response has ended. Runs on the
 * connection's event loop only; nothing in it is shared.
 *
 * <p>For a statement of a digest seen before, it allocates nothing but the lexer: the hash is
 * computed without building the text, and a small direct-mapped cache of this connection's recent
 * digests finds the entry without touching the shared map. A connection whose digests are off
 * costs one boolean test per hook.
 */
public final class DigestRecorder {
    private static final int CACHE = 32;

    private final QueryDigests digests;
    private final boolean enabled;
    private final StatementDigest digest;
    private final long[] cachedKeys;
    private final DigestStats[] cachedStats;
    private DigestStats current;
    private long startNanos;
    private boolean failed;

    public DigestRecorder(QueryDigests digests) {
        this.digests = requireNonNull(digests, "digests is null");
        this.enabled = digests.enabled();
        this.digest = enabled ? new StatementDigest() : null;
        this.cachedKeys = enabled ? new long[CACHE] : null;
        this.cachedStats = enabled ? new DigestStats[CACHE] : null;
    }

    private DigestRecorder() {
        this.digests = null;
        this.enabled = false;
        this.digest = null;
        this.cachedKeys = null;
        this.cachedStats = null;
    }

    /** A recorder that records nothing. */
    public static DigestRecorder disabled() {
        return new DigestRecorder();
    }

    /** A statement began (at {@code System.nanoTime()}); it counts under {@code sql}'s digest in {@code schema}. */
    public void start(String sql, boolean noBackslashEscapes, String schema) {
        if (!enabled) {
            return;
        }
        start(sql, digest.hash(sql, noBackslashEscapes), noBackslashEscapes, schema);
    }

    /** The digest hash of {@code sql}, for a caller that keeps it (a prepared statement's text does not change). */
    public long hash(String sql, boolean noBackslashEscapes) {
        return digest.hash(sql, noBackslashEscapes);
    }

    /** Whether statements are counted at all (when not, a caller need not compute a hash). */
    public boolean enabled() {
        return enabled;
    }

    /** A prepared statement's execution: its digest hash was made once, at its first execution ({@link #hash}). */
    public void start(String sql, long hash, boolean noBackslashEscapes, String schema) {
        if (!enabled) {
            return;
        }
        String inSchema = schema == null ? "" : schema;
        long key = QueryDigests.key(hash, inSchema);
        int slot = (int) (key ^ (key >>> 32)) & (CACHE - 1);
        DigestStats stats = cachedKeys[slot] == key ? cachedStats[slot] : null;
        if (stats == null) {
            stats = digests.entry(key, hash, inSchema, sql, noBackslashEscapes);
            if (stats != digests.overflow()) {
                cachedKeys[slot] = key;
                cachedStats[slot] = stats;
            }
        }
        current = stats;
        failed = false;
        startNanos = System.nanoTime();
    }

    /** The statement under way was answered with an ERR (counted when it ends). */
    public void error() {
        failed = true;
    }

    /** The statement under way ended; {@code shards}: how many it ran on. No-op when none is under way. */
    public void finish(boolean error, long rowsSent, long rowsAffected, int shards) {
        DigestStats stats = current;
        if (stats == null) {
            return;
        }
        current = null;
        stats.record(System.nanoTime() - startNanos, error || failed, rowsSent, rowsAffected, shards, digests.nowMillis());
    }

    /** The command ended: a statement still under way (answered by the proxy itself) ends now, on no shard. */
    public void end() {
        if (current != null) {
            finish(false, 0, 0, 0);
        }
    }
}
