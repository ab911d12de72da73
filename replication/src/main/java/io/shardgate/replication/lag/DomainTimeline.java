package io.shardgate.replication.lag;

import java.util.Iterator;
import java.util.Map;
import java.util.OptionalLong;
import java.util.TreeMap;

/**
 * One GTID domain of the primary timeline: a set of bounds {@code (sequence, time)}, each
 * meaning "every write the primary acknowledged in this domain before {@code time} (proxy clock,
 * nanos) has a sequence number of at most {@code sequence}". A replica that has applied
 * {@code sequence} therefore holds every such write.
 *
 * <p>Only useful bounds are kept: a bound is dropped when another has a smaller or equal
 * sequence and a later or equal time. What remains is ordered by sequence and by time at once,
 * so the best bound for a replica at sequence {@code r} is the last one at or below {@code r}.
 *
 * <p>Not thread-safe; {@link PrimaryPositionTimeline}'s owner guards it.
 */
final class DomainTimeline {
    private final int maxEntries;
    private final TreeMap<Long, Long> timeBySequence = new TreeMap<>();
    private long highest;

    DomainTimeline(int maxEntries) {
        if (maxEntries < 4) {
            throw new IllegalArgumentException("maxEntries: " + maxEntries + " (expected: >= 4)");
        }
        this.maxEntries = maxEntries;
    }

    /** Adds the bound {@code (sequence, nanos)} unless an existing one is at least as good. */
    void record(long sequence, long nanos) {
        raise(sequence);
        Map.Entry<Long, Long> floor = timeBySequence.floorEntry(sequence);
        if (floor != null && floor.getValue() - nanos >= 0) {
            return;
        }
        Map.Entry<Long, Long> later = timeBySequence.ceilingEntry(sequence);
        while (later != null && later.getValue() - nanos <= 0) {
            timeBySequence.remove(later.getKey());
            later = timeBySequence.higherEntry(later.getKey());
        }
        timeBySequence.put(sequence, nanos);
        if (timeBySequence.size() > maxEntries) {
            thinOlderHalf();
        }
    }

    /** Notes that {@code sequence} exists, without saying when: replicas below it are no longer caught up. */
    void raise(long sequence) {
        highest = Math.max(highest, sequence);
    }

    /** The highest sequence number known to exist in this domain (0 when none). */
    long highest() {
        return highest;
    }

    /** The latest time before which a replica at {@code applied} holds every write of this domain; empty when unknown. */
    OptionalLong anchor(long applied) {
        Map.Entry<Long, Long> floor = timeBySequence.floorEntry(applied);
        return floor == null ? OptionalLong.empty() : OptionalLong.of(floor.getValue());
    }

    /** The sequence of the bound that {@link #anchor} uses for {@code applied}; empty when there is none. */
    OptionalLong anchorSequence(long applied) {
        Long key = timeBySequence.floorKey(applied);
        return key == null ? OptionalLong.empty() : OptionalLong.of(key);
    }

    /** Drops the bounds below {@code sequence}: no replica anchors there any more. */
    void dropBelow(long sequence) {
        timeBySequence.headMap(sequence, false).clear();
    }

    int size() {
        return timeBySequence.size();
    }

    /**
     * Removes every second bound of the older half, keeping the oldest. A replica anchored on a
     * removed bound falls back to the one before it, which is older: its lag can only grow, so
     * trimming never makes a replica look fresher than it is. Repeated thinning leaves old bounds
     * exponentially sparse while the recent ones keep their full resolution.
     */
    private void thinOlderHalf() {
        int half = timeBySequence.size() / 2;
        Iterator<Long> sequences = timeBySequence.keySet().iterator();
        sequences.next();
        for (int i = 1; i < half; i++) {
            sequences.next();
            if (i % 2 == 1) {
                sequences.remove();
            }
        }
    }
}
