package io.shardgate.router.shard;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static java.util.Objects.requireNonNull;

/**
 * Which shard owns a keyspace id: the shards' key ranges, checked by
 * {@link KeyRanges#requireCompleteCover} to cover the keyspace exactly once.
 */
public final class ShardRanges {
    private final long[] starts;
    private final String[] shards;

    public ShardRanges(Map<String, KeyRange> rangesByShard) {
        requireNonNull(rangesByShard, "rangesByShard is null");
        KeyRanges.requireCompleteCover(rangesByShard);
        List<Map.Entry<String, KeyRange>> sorted = new ArrayList<>(new LinkedHashMap<>(rangesByShard).entrySet());
        sorted.sort(Comparator.comparing((Map.Entry<String, KeyRange> e) -> !e.getValue().unboundedStart())
                .thenComparing(e -> e.getValue().start(), Long::compareUnsigned));
        starts = new long[sorted.size()];
        shards = new String[sorted.size()];
        for (int i = 0; i < sorted.size(); i++) {
            starts[i] = sorted.get(i).getValue().unboundedStart() ? 0 : sorted.get(i).getValue().start();
            shards[i] = sorted.get(i).getKey();
        }
    }

    /** The shard whose range holds {@code keyspaceId} (unsigned). */
    public String shardFor(long keyspaceId) {
        int low = 0;
        int high = starts.length - 1;
        while (low < high) {
            int mid = (low + high + 1) >>> 1;
            if (Long.compareUnsigned(starts[mid], keyspaceId) <= 0) {
                low = mid;
            }
            else {
                high = mid - 1;
            }
        }
        return shards[low];
    }
}
