package io.shardgate.proxy.digest;

import io.shardgate.proxy.config.DigestsConfig;
import io.shardgate.router.classify.StatementDigest;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

import static java.util.Objects.requireNonNull;

/**
 * The proxy's statement statistics per digest and schema, in bounded memory: at most
 * {@code max_entries} digests; once full, statements of new digests count in one {@code (overflow)}
 * entry, reported like the others (ProxySQL's unbounded digest map has grown to gigabytes).
 *
 * <p>No global lock: a known digest is a {@link ConcurrentHashMap#get} (and connections keep their
 * recent digests in a {@link DigestRecorder} cache, so most statements do not even do that); a new
 * one is added by {@code computeIfAbsent} after a size check. That check and the insert are not one
 * step, so concurrent first sightings of different digests may overshoot the bound by at most the
 * number of threads adding at that moment (the proxy's event loops).
 */
public final class QueryDigests {
    /** The digest of the overflow entry. */
    public static final String OVERFLOW = "(overflow)";

    /** What {@link #top} orders by, largest first. */
    public enum Order {
        COUNT, TOTAL_TIME, P99, ERRORS, ROWS_SENT;

        /** The order named {@code name} ({@code count}, {@code total_time}, ...), case-insensitively; null if none. */
        public static Order named(String name) {
            for (Order order : values()) {
                if (order.name().equalsIgnoreCase(name)) {
                    return order;
                }
            }
            return null;
        }

        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }

        Comparator<DigestSnapshot> comparator() {
            return switch (this) {
                case COUNT -> Comparator.comparingLong(DigestSnapshot::count);
                case TOTAL_TIME -> Comparator.comparingLong(DigestSnapshot::totalMicros);
                case P99 -> Comparator.comparingLong(DigestSnapshot::p99Micros);
                case ERRORS -> Comparator.comparingLong(DigestSnapshot::errors);
                case ROWS_SENT -> Comparator.comparingLong(DigestSnapshot::rowsSent);
            };
        }
    }

    private final DigestsConfig config;
    private final LongSupplier clockMillis;
    private final ConcurrentHashMap<Long, DigestStats> digests = new ConcurrentHashMap<>();
    private final DigestStats overflow;

    public QueryDigests(DigestsConfig config) {
        this(config, System::currentTimeMillis);
    }

    /** With {@code clockMillis} for first and last seen (tests). */
    public QueryDigests(DigestsConfig config, LongSupplier clockMillis) {
        this.config = requireNonNull(config, "config is null");
        this.clockMillis = requireNonNull(clockMillis, "clockMillis is null");
        this.overflow = new DigestStats(0, OVERFLOW, "", clockMillis.getAsLong());
    }

    /** Statistics that record nothing: digests are off. */
    public static QueryDigests off() {
        return new QueryDigests(new DigestsConfig(false, 1, 0));
    }

    public boolean enabled() {
        return config.enabled();
    }

    public DigestsConfig config() {
        return config;
    }

    long nowMillis() {
        return clockMillis.getAsLong();
    }

    /**
     * The entry of {@code sql}'s digest {@code hash} in {@code schema} ({@code key} combines both):
     * the existing one, a new one when there is room (its text normalized now, once), else the
     * overflow entry.
     */
    DigestStats entry(long key, long hash, String schema, String sql, boolean noBackslashEscapes) {
        DigestStats found = digests.get(key);
        if (found != null) {
            return found;
        }
        if (digests.size() >= config.maxEntries()) {
            return overflow;
        }
        return digests.computeIfAbsent(key, k -> new DigestStats(hash,
                StatementDigest.of(sql, noBackslashEscapes, StatementDigest.MAX_TEXT).text(), schema, nowMillis()));
    }

    /** How many digests are kept (the overflow entry not counted). */
    public int size() {
        return digests.size();
    }

    public DigestStats overflow() {
        return overflow;
    }

    /** Every digest with at least one statement, and the overflow entry when it has any, largest first by {@code order}. */
    public List<DigestSnapshot> top(Order order, int limit) {
        List<DigestSnapshot> all = new ArrayList<>(digests.size() + 1);
        for (DigestStats stats : digests.values()) {
            all.add(stats.snapshot());
        }
        if (overflow.count() > 0) {
            all.add(overflow.snapshot());
        }
        all.sort(order.comparator().reversed().thenComparing(DigestSnapshot::digest));
        return all.size() > limit ? List.copyOf(all.subList(0, Math.max(0, limit))) : all;
    }

    /** The kept entries with the most total time, up to {@code limit} (for /metrics). */
    List<DigestStats> topByTotalTime(int limit) {
        List<DigestStats> all = new ArrayList<>(digests.values());
        if (overflow.count() > 0) {
            all.add(overflow);
        }
        all.sort(Comparator.comparingLong(DigestStats::totalNanos).reversed());
        return all.size() > limit ? all.subList(0, limit) : all;
    }

    /** The key of digest {@code hash} in {@code schema}. */
    static long key(long hash, String schema) {
        long h = hash ^ (schema == null ? 0 : schema.hashCode() * 0x9E3779B97F4A7C15L);
        return h == 0 ? 1 : h;
    }
}
