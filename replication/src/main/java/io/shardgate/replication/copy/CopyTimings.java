package io.shardgate.replication.copy;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.StringJoiner;

/**
 * Where a copy's time went, per stage: how often and how long in total (reading chunks on the source, writing them to
 * each target, the copying thread waiting for the writes, checkpoints, snapshots and catch-ups, throttle checks and
 * waits). Stages overlap (the next chunk is read while the last is written), so the totals do not add up to the
 * copy's time. Thread-safe: the writer threads record too.
 */
final class CopyTimings {
    private final Map<String, long[]> stages = new LinkedHashMap<>();

    /** Adds one occurrence of {@code stage} that took {@code nanos}. */
    synchronized void add(String stage, long nanos) {
        long[] totals = stages.computeIfAbsent(stage, name -> new long[2]);
        totals[0]++;
        totals[1] += nanos;
    }

    /** Adds one occurrence of {@code stage} that began at {@code startNanos} ({@link System#nanoTime()}) and ends now. */
    void since(String stage, long startNanos) {
        add(stage, System.nanoTime() - startNanos);
    }

    synchronized long count(String stage) {
        long[] totals = stages.get(stage);
        return totals == null ? 0 : totals[0];
    }

    synchronized long nanos(String stage) {
        long[] totals = stages.get(stage);
        return totals == null ? 0 : totals[1];
    }

    /** {@code "read 40 x 3.21 s, write s2 40 x 5.02 s, ..."}, stages in the order first recorded. */
    synchronized String summary() {
        StringJoiner joined = new StringJoiner(", ");
        stages.forEach((stage, totals) -> joined.add(String.format(Locale.ROOT, "%s %d x %.2f s", stage, totals[0],
                totals[1] / 1e9)));
        return joined.toString();
    }
}
