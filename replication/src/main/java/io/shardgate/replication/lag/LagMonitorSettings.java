package io.shardgate.replication.lag;

import java.time.Duration;

import static java.util.Objects.requireNonNull;

/**
 * How often and how patiently the lag monitor polls.
 *
 * @param pollInterval       time between the starts of two polls of one server
 * @param connectTimeout     TCP connect plus handshake; a frozen server fails the connect after this
 * @param socketTimeout      longest wait for a query's reply; a server that stops answering fails the poll after this
 * @param staleAfter         a replica (or the primary) whose last successful poll started longer ago
 *                           counts as unknown: infinitely stale (for the primary: its position may
 *                           have moved, so caught-up replicas stop reporting 0)
 * @param maxTimelineEntries entries kept per GTID domain of the primary timeline before the older half is thinned
 */
public record LagMonitorSettings(Duration pollInterval, Duration connectTimeout, Duration socketTimeout,
                                 Duration staleAfter, int maxTimelineEntries) {
    public static final Duration DEFAULT_POLL_INTERVAL = Duration.ofMillis(50);
    public static final Duration DEFAULT_TIMEOUT = Duration.ofMillis(500);
    public static final int DEFAULT_MAX_TIMELINE_ENTRIES = 10_000;

    public LagMonitorSettings {
        requirePositive(pollInterval, "pollInterval");
        requirePositive(connectTimeout, "connectTimeout");
        requirePositive(socketTimeout, "socketTimeout");
        requirePositive(staleAfter, "staleAfter");
        if (staleAfter.compareTo(pollInterval) <= 0) {
            throw new IllegalArgumentException("staleAfter: " + staleAfter.toMillis() + " ms (expected: > pollInterval, "
                    + pollInterval.toMillis() + " ms)");
        }
        if (maxTimelineEntries < 16) {
            throw new IllegalArgumentException("maxTimelineEntries: " + maxTimelineEntries + " (expected: >= 16)");
        }
    }

    /** 50 ms polls, 500 ms timeouts, stale after 650 ms, 10,000 timeline entries per domain. */
    public static LagMonitorSettings defaults() {
        return of(DEFAULT_POLL_INTERVAL, DEFAULT_TIMEOUT, DEFAULT_TIMEOUT);
    }

    /**
     * These intervals with {@code staleAfter} = three intervals plus the longer timeout: two
     * polls may be lost, and a third may hang until its timeout, before a server counts as unknown.
     */
    public static LagMonitorSettings of(Duration pollInterval, Duration connectTimeout, Duration socketTimeout) {
        requirePositive(pollInterval, "pollInterval");
        requirePositive(connectTimeout, "connectTimeout");
        requirePositive(socketTimeout, "socketTimeout");
        Duration longerTimeout = connectTimeout.compareTo(socketTimeout) >= 0 ? connectTimeout : socketTimeout;
        return new LagMonitorSettings(pollInterval, connectTimeout, socketTimeout,
                pollInterval.multipliedBy(3).plus(longerTimeout), DEFAULT_MAX_TIMELINE_ENTRIES);
    }

    /** Longest a poll round can take before its timeouts end it: a connect and two queries. */
    Duration longestPoll() {
        return connectTimeout.plus(socketTimeout.multipliedBy(2));
    }

    private static void requirePositive(Duration duration, String name) {
        requireNonNull(duration, name + " is null");
        if (duration.isNegative() || duration.isZero()) {
            throw new IllegalArgumentException(name + ": " + duration + " (expected: > 0)");
        }
    }
}
