package io.shardgate.router.shard;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

import static java.util.Objects.requireNonNull;

/** Checks that shards' key ranges cover the whole keyspace exactly once. */
public final class KeyRanges {
    private KeyRanges() {
    }

    /**
     * Throws with the offending shards named when {@code rangesByShard} leaves a gap or overlaps.
     * For example {@code s0: -80, s1: 80-} passes; {@code s0: -80, s1: 90-} fails with a gap
     * between 80 and 90.
     */
    public static void requireCompleteCover(Map<String, KeyRange> rangesByShard) {
        requireNonNull(rangesByShard, "rangesByShard is null");
        if (rangesByShard.isEmpty()) {
            throw new IllegalArgumentException("no shard key ranges: the keyspace is not covered");
        }
        List<Map.Entry<String, KeyRange>> sorted = new ArrayList<>(rangesByShard.entrySet());
        sorted.sort(Comparator.comparing((Map.Entry<String, KeyRange> e) -> !e.getValue().unboundedStart())
                .thenComparing(e -> e.getValue().start(), Long::compareUnsigned));
        Map.Entry<String, KeyRange> first = sorted.get(0);
        if (!first.getValue().unboundedStart()) {
            throw new IllegalArgumentException("key ranges leave a gap below " + first.getValue()
                    + " (shard " + first.getKey() + "): the first range must start at the beginning, as in -80");
        }
        for (int i = 1; i < sorted.size(); i++) {
            Map.Entry<String, KeyRange> previous = sorted.get(i - 1);
            Map.Entry<String, KeyRange> current = sorted.get(i);
            KeyRange before = previous.getValue();
            KeyRange after = current.getValue();
            if (before.unboundedEnd() || after.unboundedStart()) {
                throw overlap(previous, current);
            }
            int order = Long.compareUnsigned(before.end(), after.start());
            if (order > 0) {
                throw overlap(previous, current);
            }
            if (order < 0) {
                throw new IllegalArgumentException("key ranges leave a gap between shard " + previous.getKey()
                        + " (" + before + ") and shard " + current.getKey() + " (" + after + ")");
            }
        }
        Map.Entry<String, KeyRange> last = sorted.get(sorted.size() - 1);
        if (!last.getValue().unboundedEnd()) {
            throw new IllegalArgumentException("key ranges leave a gap above " + last.getValue()
                    + " (shard " + last.getKey() + "): the last range must run to the end, as in 80-");
        }
    }

    private static IllegalArgumentException overlap(Map.Entry<String, KeyRange> a, Map.Entry<String, KeyRange> b) {
        return new IllegalArgumentException("key ranges of shard " + a.getKey() + " (" + a.getValue()
                + ") and shard " + b.getKey() + " (" + b.getValue() + ") overlap");
    }
}
