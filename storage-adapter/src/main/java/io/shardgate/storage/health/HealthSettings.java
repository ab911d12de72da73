package io.shardgate.storage.health;

import java.time.Duration;

import static java.util.Objects.requireNonNull;

/**
 * How often and how patiently backends are probed, and the thresholds the rules use.
 *
 * @param interval             time between the starts of two probes of one backend
 * @param connectTimeout       TCP connect plus handshake; a frozen server fails after this
 * @param socketTimeout        longest wait for one query's reply
 * @param historyListThreshold InnoDB history list length above which a backend is DEGRADED
 * @param slowCheckInterval    how often the checks that scan the data dictionary run
 *                             (corrupt indexes, table sizes)
 * @param statusTimeout        longest wait for MyRocks' stall counters. Any read of the global
 *                             status waits while MyRocks has writes stopped (3.8 s measured with
 *                             4 MB memtables), and no statement timeout interrupts it; a read that
 *                             takes longer than this counts as a stall in progress
 */
public record HealthSettings(Duration interval, Duration connectTimeout, Duration socketTimeout,
                             long historyListThreshold, Duration slowCheckInterval, Duration statusTimeout) {
    public static final Duration DEFAULT_INTERVAL = Duration.ofSeconds(1);
    public static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofMillis(1000);
    public static final Duration DEFAULT_SOCKET_TIMEOUT = Duration.ofMillis(2000);
    public static final long DEFAULT_HISTORY_LIST_THRESHOLD = 100_000;
    public static final Duration DEFAULT_SLOW_CHECK_INTERVAL = Duration.ofSeconds(60);
    public static final Duration DEFAULT_STATUS_TIMEOUT = Duration.ofMillis(1000);

    public HealthSettings {
        requirePositive(interval, "interval");
        requirePositive(connectTimeout, "connectTimeout");
        requirePositive(socketTimeout, "socketTimeout");
        requirePositive(slowCheckInterval, "slowCheckInterval");
        requirePositive(statusTimeout, "statusTimeout");
        if (historyListThreshold < 1) {
            throw new IllegalArgumentException("historyListThreshold: " + historyListThreshold + " (expected: >= 1)");
        }
        if (slowCheckInterval.compareTo(interval) < 0) {
            throw new IllegalArgumentException("slowCheckInterval: " + slowCheckInterval.toMillis()
                    + " ms (expected: >= interval, " + interval.toMillis() + " ms)");
        }
        if (statusTimeout.compareTo(socketTimeout) > 0) {
            throw new IllegalArgumentException("statusTimeout: " + statusTimeout.toMillis()
                    + " ms (expected: <= socketTimeout, " + socketTimeout.toMillis() + " ms)");
        }
    }

    /**
     * 1 s probes, 1 s connect and 2 s query timeouts, history list 100,000, slow checks every
     * 60 s, stall counters within 1 s.
     */
    public static HealthSettings defaults() {
        return new HealthSettings(DEFAULT_INTERVAL, DEFAULT_CONNECT_TIMEOUT, DEFAULT_SOCKET_TIMEOUT,
                DEFAULT_HISTORY_LIST_THRESHOLD, DEFAULT_SLOW_CHECK_INTERVAL, DEFAULT_STATUS_TIMEOUT);
    }

    public HealthSettings withHistoryListThreshold(long threshold) {
        return new HealthSettings(interval, connectTimeout, socketTimeout, threshold, slowCheckInterval, statusTimeout);
    }

    public HealthSettings withSlowCheckInterval(Duration slowChecks) {
        return new HealthSettings(interval, connectTimeout, socketTimeout, historyListThreshold, slowChecks,
                statusTimeout);
    }

    private static void requirePositive(Duration duration, String name) {
        requireNonNull(duration, name + " is null");
        if (duration.isNegative() || duration.isZero()) {
            throw new IllegalArgumentException(name + ": " + duration + " (expected: > 0)");
        }
    }
}
