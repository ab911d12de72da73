package io.shardgate.proxy.sharding.sequence;

import io.shardgate.router.schema.Sequence;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SequenceAllocatorTest {
    private static final Sequence ORDERS = new Sequence("orders", "id", "s0");
    private static final Sequence USERS = new Sequence("users", "id", "s1");

    /** Blocks handed out one after another per sequence, like the table does, counting reservations. */
    private static final class CountingStore implements SequenceStore {
        private final Map<String, Long> next = new HashMap<>();
        private final AtomicInteger reservations = new AtomicInteger();
        private final long start;

        CountingStore(long start) {
            this.start = start;
        }

        @Override
        public synchronized long reserve(Sequence sequence, int count) {
            reservations.incrementAndGet();
            long first = next.getOrDefault(sequence.name(), start);
            next.put(sequence.name(), first + count);
            return first;
        }
    }

    @Test
    void handsOutABlockBeforeReservingTheNext() {
        CountingStore store = new CountingStore(100);
        SequenceAllocator allocator = new SequenceAllocator(store, 3);

        List<Long> ids = new ArrayList<>();
        for (int i = 0; i < 7; i++) {
            ids.add(allocator.next(ORDERS));
        }

        assertThat(ids).containsExactly(100L, 101L, 102L, 103L, 104L, 105L, 106L);
        assertThat(store.reservations).hasValue(3);
    }

    @Test
    void aRangeIsConsecutiveAndTakesAFreshBlockWhenTheCurrentOneIsShort() {
        CountingStore store = new CountingStore(1);
        SequenceAllocator allocator = new SequenceAllocator(store, 10);

        assertThat(allocator.next(ORDERS)).isEqualTo(1);
        assertThat(allocator.nextRange(ORDERS, 5)).isEqualTo(2);   // 2..6 of the first block
        assertThat(allocator.nextRange(ORDERS, 5)).isEqualTo(11);  // 7..10 are too few: a fresh block
        assertThat(allocator.nextRange(ORDERS, 25)).isEqualTo(21); // beyond a block: a range of its own
        assertThat(allocator.next(ORDERS)).isEqualTo(16);          // the current block goes on
        assertThat(store.reservations).hasValue(3);
    }

    @Test
    void concurrentRangesNeverInterleave() throws Exception {
        SequenceAllocator allocator = new SequenceAllocator(new CountingStore(1), 64);
        java.util.Set<Long> seen = java.util.concurrent.ConcurrentHashMap.newKeySet();
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(4);
        try {
            List<java.util.concurrent.Future<?>> futures = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                futures.add(pool.submit(() -> {
                    for (int i = 0; i < 500; i++) {
                        long first = allocator.nextRange(ORDERS, 7);
                        for (long id = first; id < first + 7; id++) {
                            assertThat(seen.add(id)).as("id %d handed out twice", id).isTrue();
                        }
                    }
                }));
            }
            for (java.util.concurrent.Future<?> future : futures) {
                future.get();
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(seen).hasSize(4 * 500 * 7);
    }

    @Test
    void sequencesHaveTheirOwnBlocks() {
        CountingStore store = new CountingStore(1);
        SequenceAllocator allocator = new SequenceAllocator(store, 10);

        assertThat(allocator.next(ORDERS)).isEqualTo(1);
        assertThat(allocator.next(USERS)).isEqualTo(1);
        assertThat(allocator.next(ORDERS)).isEqualTo(2);
        assertThat(store.reservations).hasValue(2);
    }

    @Test
    void concurrentCallersGetDistinctValuesAndRefillsAreNeverDoubled() throws Exception {
        CountingStore store = new CountingStore(1);
        SequenceAllocator allocator = new SequenceAllocator(store, 50);
        int threads = 8;
        int perThread = 2000;
        Set<Long> ids = ConcurrentHashMap.newKeySet();
        CountDownLatch go = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                done.add(pool.submit(() -> {
                    go.await();
                    for (int i = 0; i < perThread; i++) {
                        ids.add(allocator.next(ORDERS));
                    }
                    return null;
                }));
            }
            go.countDown();
            for (Future<?> each : done) {
                each.get(30, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }

        assertThat(ids).hasSize(threads * perThread);
        // Every reserved value was used: no thread reserved a block while another's was still fresh.
        assertThat(store.reservations).hasValue(threads * perThread / 50);
        assertThat(ids).allMatch(id -> id >= 1 && id <= threads * perThread);
    }

    @Test
    void aFailedReservationFailsThatCallAndTheNextCallTriesAgain() {
        AtomicInteger calls = new AtomicInteger();
        SequenceAllocator allocator = new SequenceAllocator((sequence, count) -> {
            if (calls.incrementAndGet() == 1) {
                throw new SequenceAllocationException(sequence, "cannot reserve a block of " + count + " values",
                        new RuntimeException("Connection refused"));
            }
            return 40;
        }, 5);

        assertThatThrownBy(() -> allocator.next(ORDERS))
                .isInstanceOf(SequenceAllocationException.class)
                .hasMessage("sequence orders.id on shard s0: cannot reserve a block of 5 values: Connection refused");
        assertThat(allocator.next(ORDERS)).isEqualTo(40);
    }

    @Test
    void aStoreAnsweringAnImpossibleBlockIsAnError() {
        SequenceAllocator allocator = new SequenceAllocator((sequence, count) -> Long.MAX_VALUE - 1, 5);

        assertThatThrownBy(() -> allocator.next(ORDERS))
                .isInstanceOf(SequenceAllocationException.class)
                .hasMessageStartingWith("sequence orders.id on shard s0: reserved block starts at " + (Long.MAX_VALUE - 1));
    }

    @Test
    void aClosedAllocatorHandsOutNothing() {
        SequenceAllocator allocator = new SequenceAllocator(new CountingStore(1), 10);
        allocator.next(ORDERS);

        allocator.close();

        assertThatThrownBy(() -> allocator.next(ORDERS)).isInstanceOf(IllegalStateException.class)
                .hasMessage("sequence allocator is closed");
    }

    @Test
    void rejectsANonPositiveBlockSize() {
        assertThatThrownBy(() -> new SequenceAllocator(new CountingStore(1), 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("block size 0 (expected: >= 1)");
        assertThat(SequenceAllocator.DEFAULT_BLOCK_SIZE).isEqualTo(1000);
    }
}
