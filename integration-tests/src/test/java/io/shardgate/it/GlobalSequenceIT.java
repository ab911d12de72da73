package io.shardgate.it;

import io.shardgate.proxy.config.HostPort;
import io.shardgate.proxy.sharding.ControlPlane;
import io.shardgate.proxy.sharding.sequence.SequenceAllocationException;
import io.shardgate.proxy.sharding.sequence.SequenceAllocator;
import io.shardgate.replication.topology.Node;
import io.shardgate.replication.topology.Shard;
import io.shardgate.replication.topology.Topology;
import io.shardgate.replication.topology.TopologySpec;
import io.shardgate.router.schema.Sequence;
import io.shardgate.storage.Engine;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.ToLongFunction;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Global sequences: blocks from {@code _shardgate.sequences} on real primaries, shared by two "proxies". */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class GlobalSequenceIT {
    private static final ToLongFunction<Sequence> FROM_ONE = sequence -> 1;
    private Topology topology;

    @BeforeAll
    void start() {
        topology = Topology.start(TopologySpec.builder()
                .shard("s0", Engine.INNODB, 0)
                .shard("s1", Engine.ROCKSDB, 0)
                .build());
    }

    @AfterAll
    void stop() {
        if (topology != null) {
            topology.close();
        }
    }

    private ControlPlane controlPlane(String password) {
        Map<String, HostPort> primaries = new LinkedHashMap<>();
        for (Shard shard : topology.shards()) {
            primaries.put(shard.name(), new HostPort(shard.primary().host(), shard.primary().port()));
        }
        return new ControlPlane(primaries, topology.accounts().user(), password);
    }

    private ControlPlane controlPlane() {
        return controlPlane(topology.accounts().password());
    }

    @Test
    void twoAllocatorsHammeredByEightThreadsNeverHandOutAnIdTwice() throws Exception {
        Sequence sequence = new Sequence("orders", "id", "s1");
        int threads = 8;
        int perThread = 5000;
        long[][] ids = new long[threads][perThread];
        try (ControlPlane first = controlPlane(); ControlPlane second = controlPlane();
             SequenceAllocator a = SequenceAllocator.onShards(first::dataSource, FROM_ONE, 100);
             SequenceAllocator b = SequenceAllocator.onShards(second::dataSource, FROM_ONE, 100)) {
            ExecutorService pool = Executors.newFixedThreadPool(threads);
            CountDownLatch go = new CountDownLatch(1);
            try {
                List<Future<?>> done = new ArrayList<>();
                for (int t = 0; t < threads; t++) {
                    SequenceAllocator allocator = t % 2 == 0 ? a : b;
                    long[] mine = ids[t];
                    done.add(pool.submit(() -> {
                        go.await();
                        for (int i = 0; i < perThread; i++) {
                            mine[i] = allocator.next(sequence);
                        }
                        return null;
                    }));
                }
                go.countDown();
                for (Future<?> each : done) {
                    each.get(120, TimeUnit.SECONDS);
                }
            } finally {
                pool.shutdownNow();
            }
        }

        long[] all = java.util.Arrays.stream(ids).flatMapToLong(java.util.Arrays::stream).sorted().toArray();
        assertThat(java.util.Arrays.stream(all).distinct().count()).isEqualTo(threads * perThread);
        assertThat(all[0]).isGreaterThanOrEqualTo(1);
        // Each of the 400 blocks of 100 was reserved exactly once: the row moved by exactly the values used,
        // plus the unused tails of the (at most two) blocks the allocators still held when they closed.
        long nextValue = Long.parseLong(topology.shard("s1").primary()
                .queryString("SELECT next_value FROM _shardgate.sequences WHERE name = 'orders.id'"));
        assertThat(nextValue).isGreaterThan(all[all.length - 1]).isLessThanOrEqualTo(1 + threads * perThread + 2 * 100);
        // The shard's default engine is MyRocks, but the sequence table is InnoDB.
        assertThat(engineOf(topology.shard("s1").primary(), "sequences")).isEqualTo("InnoDB");
    }

    @Test
    void aRestartedAllocatorContinuesAfterEveryBlockTheOldOneReserved() {
        Sequence sequence = new Sequence("invoices", "id", "s0");
        List<Long> before = new ArrayList<>();
        try (ControlPlane plane = controlPlane(); SequenceAllocator allocator =
                SequenceAllocator.onShards(plane::dataSource, FROM_ONE, SequenceAllocator.DEFAULT_BLOCK_SIZE)) {
            for (int i = 0; i < 10; i++) {
                before.add(allocator.next(sequence));
            }
        }
        List<Long> after = new ArrayList<>();
        try (ControlPlane plane = controlPlane(); SequenceAllocator allocator =
                SequenceAllocator.onShards(plane::dataSource, FROM_ONE, SequenceAllocator.DEFAULT_BLOCK_SIZE)) {
            for (int i = 0; i < 10; i++) {
                after.add(allocator.next(sequence));
            }
        }

        assertThat(before).containsExactly(1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L, 10L);
        // The rest of the first block is skipped, never handed out again.
        assertThat(after.get(0)).isEqualTo(1001L);
        assertThat(after).doesNotContainAnyElementsOf(before).isSorted();
    }

    @Test
    void aNewSequenceStartsAtTheFloorWhichIsAskedOnlyOnce() {
        Sequence sequence = new Sequence("users", "id", "s1");
        topology.shard("s1").primary().execute("CREATE DATABASE IF NOT EXISTS app",
                "CREATE TABLE app.users (id BIGINT PRIMARY KEY)", "INSERT INTO app.users VALUES (41), (4242)");
        AtomicInteger asked = new AtomicInteger();
        ToLongFunction<Sequence> floor = s -> {
            asked.incrementAndGet();
            return Long.parseLong(topology.shard(s.shard()).primary()
                    .queryString("SELECT MAX(" + s.column() + ") + 1 FROM app." + s.table()));
        };
        try (ControlPlane plane = controlPlane()) {
            try (SequenceAllocator allocator = SequenceAllocator.onShards(plane::dataSource, floor, 5)) {
                assertThat(allocator.next(sequence)).isEqualTo(4243);
                for (int i = 0; i < 5; i++) {
                    allocator.next(sequence); // a refill: the row exists now
                }
            }
            try (SequenceAllocator another = SequenceAllocator.onShards(plane::dataSource, floor, 5)) {
                assertThat(another.next(sequence)).isEqualTo(4243 + 10);
            }
        }
        assertThat(asked).hasValue(1);
    }

    @Test
    void aFloorBelowOneStartsAtOne() {
        try (ControlPlane plane = controlPlane();
             SequenceAllocator allocator = SequenceAllocator.onShards(plane::dataSource, s -> -5, 10)) {
            assertThat(allocator.next(new Sequence("empty", "id", "s0"))).isEqualTo(1);
        }
    }

    @Test
    void aShardThatRefusesTheControlPlaneFailsWithTheShardAndSequenceNamed() {
        try (ControlPlane plane = controlPlane("wrong-password");
             SequenceAllocator allocator = SequenceAllocator.onShards(plane::dataSource, FROM_ONE, 10)) {
            assertThatThrownBy(() -> allocator.next(new Sequence("carts", "id", "s0")))
                    .isInstanceOf(SequenceAllocationException.class)
                    .hasMessageStartingWith("sequence carts.id on shard s0: cannot reserve a block of 10 values: ")
                    .hasMessageContaining("Access denied");
        }
    }

    @Test
    void aSequenceOnAShardTheControlPlaneDoesNotKnowFailsWithItsName() {
        try (ControlPlane plane = controlPlane();
             SequenceAllocator allocator = SequenceAllocator.onShards(plane::dataSource, FROM_ONE, 10)) {
            assertThatThrownBy(() -> allocator.next(new Sequence("carts", "id", "s9")))
                    .isInstanceOf(SequenceAllocationException.class)
                    .hasMessage("sequence carts.id on shard s9: cannot reserve a block of 10 values:"
                            + " unknown shard 's9' (expected one of: s0, s1)");
        }
    }

    private static String engineOf(Node node, String table) {
        return node.queryString("SELECT ENGINE FROM information_schema.TABLES WHERE TABLE_SCHEMA = '_shardgate'"
                + " AND TABLE_NAME = '" + table + "'");
    }
}
