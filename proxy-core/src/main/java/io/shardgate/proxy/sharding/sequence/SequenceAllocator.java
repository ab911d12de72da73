package io.shardgate.proxy.sharding.sequence;

import io.shardgate.router.plan.SequenceSource;
import io.shardgate.router.schema.Sequence;

import javax.sql.DataSource;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;
import java.util.function.ToLongFunction;

import static java.util.Objects.requireNonNull;

/**
 * Global sequence values ({@code sequences.block_size} at a time) for the router.
 *
 * <p>Each sequence has a current {@link SequenceBlock}; {@link #next} takes a value from it with
 * one atomic increment and no lock and no round trip. The thread that finds the block exhausted
 * takes the sequence's refill lock, and reserves a new block from the {@link SequenceStore} only
 * if the block is still the exhausted one: threads that queued behind it find the new block and
 * take from it, so concurrent refills of one sequence cost one reservation. Other sequences are
 * not held up by a refill.
 *
 * <p>Values are unique across allocators and restarts because every block is reserved durably
 * before any of it is handed out; the values left in a block when the allocator closes are
 * skipped (gaps, never repeats).
 */
public final class SequenceAllocator implements SequenceSource, AutoCloseable {
    /** The default of {@code sequences.block_size}. */
    public static final int DEFAULT_BLOCK_SIZE = 1000;

    private final SequenceStore store;
    private final int blockSize;
    private final Map<Sequence, Blocks> sequences = new ConcurrentHashMap<>();
    private volatile boolean closed;

    public SequenceAllocator(SequenceStore store, int blockSize) {
        this.store = requireNonNull(store, "store is null");
        if (blockSize < 1) {
            throw new IllegalArgumentException("block size " + blockSize + " (expected: >= 1)");
        }
        this.blockSize = blockSize;
    }

    /**
     * Blocks from {@code _shardgate.sequences} on each sequence's shard primary; a new sequence
     * starts at {@code floor} (for example one past the column's largest value on any shard).
     */
    public static SequenceAllocator onShards(Function<String, DataSource> primaries, ToLongFunction<Sequence> floor,
                                             int blockSize) {
        return new SequenceAllocator(new SequenceTable(primaries, floor), blockSize);
    }

    @Override
    public long next(Sequence sequence) {
        requireNonNull(sequence, "sequence is null");
        if (closed) {
            throw new IllegalStateException("sequence allocator is closed");
        }
        Blocks blocks = sequences.get(sequence);
        if (blocks == null) {
            blocks = sequences.computeIfAbsent(sequence, Blocks::new);
        }
        return blocks.next();
    }

    /**
     * {@code count} consecutive values: from the current block when it has them left, else from a
     * fresh block (the old one's rest is skipped), or, beyond a block's size, a range reserved for
     * this statement alone.
     */
    @Override
    public long nextRange(Sequence sequence, int count) {
        requireNonNull(sequence, "sequence is null");
        if (count <= 1) {
            return next(sequence);
        }
        if (closed) {
            throw new IllegalStateException("sequence allocator is closed");
        }
        if (count > blockSize) {
            long first = store.reserve(sequence, count);
            if (first < 1 || first > Long.MAX_VALUE - count) {
                throw new SequenceAllocationException(sequence, "reserved range starts at " + first, null);
            }
            return first;
        }
        return sequences.computeIfAbsent(sequence, Blocks::new).next(count);
    }

    /** Stops handing out values; the rest of each current block is never used. */
    @Override
    public void close() {
        closed = true;
        sequences.clear();
    }

    /** One sequence's current block and the lock its refills take turns on. */
    private final class Blocks {
        private final Sequence sequence;
        private final ReentrantLock refill = new ReentrantLock();
        private volatile SequenceBlock current = SequenceBlock.empty();

        Blocks(Sequence sequence) {
            this.sequence = sequence;
        }

        long next() {
            return next(1);
        }

        long next(int count) {
            while (true) {
                SequenceBlock block = current;
                long value = count == 1 ? block.take() : block.take(count);
                if (value != SequenceBlock.EXHAUSTED) {
                    return value;
                }
                refillAfter(block);
            }
        }

        private void refillAfter(SequenceBlock exhausted) {
            refill.lock();
            try {
                if (current != exhausted) {
                    return; // another thread refilled while this one waited
                }
                long first = store.reserve(sequence, blockSize);
                if (first < 1 || first > Long.MAX_VALUE - blockSize) {
                    throw new SequenceAllocationException(sequence, "reserved block starts at " + first
                            + " (expected: 1.." + (Long.MAX_VALUE - blockSize) + ")", null);
                }
                current = new SequenceBlock(first, first + blockSize);
            } finally {
                refill.unlock();
            }
        }
    }
}
