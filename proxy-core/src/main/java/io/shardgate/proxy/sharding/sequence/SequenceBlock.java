package io.shardgate.proxy.sharding.sequence;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The values {@code [first, end)} reserved for one sequence, handed out by one atomic increment
 * each. Once exhausted, every further {@link #take()} answers {@link #EXHAUSTED}.
 */
final class SequenceBlock {
    /** What {@link #take()} answers once the block is used up (sequence values start at 1). */
    static final long EXHAUSTED = 0;

    private final AtomicLong cursor;
    private final long end;

    /** A block with nothing in it: the first take asks for a refill. */
    static SequenceBlock empty() {
        return new SequenceBlock(1, 1);
    }

    SequenceBlock(long first, long end) {
        if (first < 1 || end < first) {
            throw new IllegalArgumentException("block [" + first + ", " + end + ") (expected: 1 <= first <= end)");
        }
        this.cursor = new AtomicLong(first);
        this.end = end;
    }

    /**
     * The first of {@code count} consecutive values of the block, or {@link #EXHAUSTED} when fewer
     * are left (the rest of the block is then given up, so the next refill starts a fresh one).
     */
    long take(int count) {
        while (true) {
            long first = cursor.get();
            if (first >= end) {
                return EXHAUSTED;
            }
            if (end - first < count) {
                cursor.compareAndSet(first, end);
                continue;
            }
            if (cursor.compareAndSet(first, first + count)) {
                return first;
            }
        }
    }

    /** The next value of the block, or {@link #EXHAUSTED}. */
    long take() {
        if (cursor.get() >= end) {
            return EXHAUSTED; // keeps the cursor from creeping on while callers wait for a refill
        }
        long value = cursor.getAndIncrement();
        return value < end ? value : EXHAUSTED;
    }
}
