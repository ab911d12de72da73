package io.shardgate.replication.copy;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * A point-in-time view of a copy, safe to read from any thread.
 *
 * @param phase            what the copy does now
 * @param tables           per table, rows copied of the estimate
 * @param rowsPerSecond    rows copied per second of copying so far
 * @param eta              the time left at that rate for the rows the estimates still expect; empty when unknown
 * @param throttled        {@code "throttled: <reason>"} while a throttle holds the copy; empty otherwise
 * @param streamLagSeconds the streams' apply lag (0 before streaming)
 * @param error            why the copy stopped; empty while it runs or after success
 */
public record CopyProgress(Phase phase, List<TableProgress> tables, double rowsPerSecond, Optional<Duration> eta,
                           String throttled, double streamLagSeconds, String error) {
    /** The copy's phases, in order. */
    public enum Phase { PREPARING, COPYING, CATCHING_UP, STREAMING, STOPPED, FAILED }

    public CopyProgress {
        requireNonNull(phase, "phase is null");
        tables = List.copyOf(tables);
        requireNonNull(eta, "eta is null");
        requireNonNull(throttled, "throttled is null");
        requireNonNull(error, "error is null");
    }

    /** One table's rows copied of the source's estimate. */
    public record TableProgress(String table, long rowsCopied, long rowsTotal, boolean done) {
    }
}
