package io.shardgate.replication.lag;

import java.util.OptionalLong;

import static java.util.Objects.requireNonNull;

/**
 * What a replica's applied position meant when it was last compared with the primary timeline:
 * caught up with everything the proxy knows the primary committed (as confirmed at
 * {@code sinceNanos}), behind with every write acknowledged before {@code sinceNanos}, or
 * unknown. The lag itself is computed when asked, so it grows in real time while the replica
 * is stuck.
 */
record Freshness(Kind kind, long sinceNanos) {
    private static final Freshness UNKNOWN = new Freshness(Kind.UNKNOWN, 0);
    private static final long NANOS_PER_MILLI = 1_000_000;

    enum Kind { UNKNOWN, CAUGHT_UP, BEHIND }

    Freshness {
        requireNonNull(kind, "kind is null");
    }

    static Freshness unknown() {
        return UNKNOWN;
    }

    /** Applied everything known; the primary's position was last read at {@code confirmedNanos}. */
    static Freshness caughtUp(long confirmedNanos) {
        return new Freshness(Kind.CAUGHT_UP, confirmedNanos);
    }

    /** Holds every write the primary acknowledged before {@code anchorNanos}, and lacks a later one. */
    static Freshness behindSince(long anchorNanos) {
        return new Freshness(Kind.BEHIND, anchorNanos);
    }

    /**
     * The lag at {@code now} in milliseconds, rounded up: 0 only for a caught-up replica whose
     * primary position is at most {@code staleAfterNanos} old (after that, the time since the
     * last confirmation, since the primary may have committed unseen writes); at least 1 for a
     * replica that is behind; empty when unknown (infinitely stale).
     */
    OptionalLong lagMillis(long now, long staleAfterNanos) {
        return switch (kind) {
            case UNKNOWN -> OptionalLong.empty();
            case CAUGHT_UP -> {
                long age = now - sinceNanos;
                yield OptionalLong.of(age <= staleAfterNanos ? 0 : ceilMillis(age));
            }
            case BEHIND -> OptionalLong.of(Math.max(1, ceilMillis(now - sinceNanos)));
        };
    }

    private static long ceilMillis(long nanos) {
        return nanos <= 0 ? 0 : (nanos + NANOS_PER_MILLI - 1) / NANOS_PER_MILLI;
    }
}
