package io.shardgate.storage.it;

import io.shardgate.storage.health.HealthReport;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * Every report a health monitor produced, each with the JVM's monotonic time it arrived at, so
 * that tests measure detection delays and wait for a state without sleeping blindly.
 */
final class Reports implements Consumer<HealthReport> {
    record Arrival(long nanos, HealthReport report) {
    }

    private final List<Arrival> arrivals = new CopyOnWriteArrayList<>();

    @Override
    public void accept(HealthReport report) {
        arrivals.add(new Arrival(System.nanoTime(), report));
    }

    /**
     * The first report after {@code sinceNanos} that matches, waiting up to {@code timeout};
     * null when none came.
     */
    Arrival await(long sinceNanos, Predicate<HealthReport> condition, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            for (Arrival arrival : arrivals) {
                if (arrival.nanos() - sinceNanos >= 0 && condition.test(arrival.report())) {
                    return arrival;
                }
            }
            if (System.nanoTime() - deadline > 0) {
                return null;
            }
            LockSupport.parkNanos(Duration.ofMillis(20).toNanos());
        }
    }

    /** Every report since {@code sinceNanos}, as "+1.02 s STALLED" lines relative to it. */
    List<String> timeline(long sinceNanos, long untilNanos) {
        List<String> lines = new java.util.ArrayList<>();
        for (Arrival arrival : arrivals) {
            if (arrival.nanos() - sinceNanos >= 0 && untilNanos - arrival.nanos() >= 0) {
                String why = arrival.report().reasons().isEmpty() ? ""
                        : " (" + arrival.report().reasons().get(0).split(":")[0] + ")";
                lines.add(String.format(java.util.Locale.ROOT, "+%.2f s %s%s", (arrival.nanos() - sinceNanos) / 1e9,
                        arrival.report().state(), why));
            }
        }
        return lines;
    }

    /** Whether any report between the two times matches. */
    boolean any(long sinceNanos, long untilNanos, Predicate<HealthReport> condition) {
        for (Arrival arrival : arrivals) {
            if (arrival.nanos() - sinceNanos >= 0 && untilNanos - arrival.nanos() >= 0 && condition.test(arrival.report())) {
                return true;
            }
        }
        return false;
    }

    /** The latest report, or null before the first. */
    HealthReport last() {
        return arrivals.isEmpty() ? null : arrivals.get(arrivals.size() - 1).report();
    }
}
