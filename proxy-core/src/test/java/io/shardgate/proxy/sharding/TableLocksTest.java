package io.shardgate.proxy.sharding;

import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.shardgate.errors.ErrorCode;
import io.shardgate.errors.ShardgateException;
import io.shardgate.proxy.backend.BackendConnection;
import io.shardgate.proxy.backend.BackendPool;
import io.shardgate.proxy.backend.TestBackendConnections;
import io.shardgate.proxy.error.BackendErrorException;
import io.shardgate.proxy.execution.ColumnCollations;
import io.shardgate.proxy.execution.Packets;
import io.shardgate.proxy.execution.ShardResultStream;
import io.shardgate.proxy.protocol.MySqlPacket;
import io.shardgate.proxy.protocol.ServerStatus;
import io.shardgate.router.exec.Role;
import io.shardgate.router.exec.ShardStatement;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import static io.shardgate.proxy.execution.Packets.err;
import static io.shardgate.proxy.execution.Packets.ok;
import static io.shardgate.proxy.execution.Packets.query;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A session's table locks over two shards whose primaries are connections over {@link EmbeddedChannel}s, handed out
 * by real pools: locks are taken shard after shard in name order, a refusal releases what was taken, UNLOCK TABLES
 * returns the connections (closing one whose UNLOCK failed), and a shard without a lock connection answers 1100.
 */
class TableLocksTest {
    private final Map<String, EmbeddedChannel> servers = new TreeMap<>(Map.of("s0", new EmbeddedChannel(), "s1", new EmbeddedChannel()));
    private final Map<String, BackendPool> pools = new TreeMap<>();
    private final Set<BackendConnection> running = ConcurrentHashMap.newKeySet();
    private final List<String> bound = new ArrayList<>();
    private final TableLocks locks = new TableLocks(running, Runnable::run);

    TableLocksTest() {
        servers.forEach((shard, server) -> {
            BackendConnection connection = TestBackendConnections.over(server, "primary");
            pools.put(shard, new BackendPool(connection.target(), (loop, target, shaping, schema) -> CompletableFuture.completedFuture(connection),
                    1, Duration.ofSeconds(5)));
        });
    }

    @AfterEach
    void close() {
        servers.values().forEach(EmbeddedChannel::finishAndReleaseAll);
    }

    private CompletableFuture<Void> lock(String... shards) {
        SortedMap<String, byte[]> statements = new TreeMap<>();
        for (String shard : shards) {
            statements.put(shard, ("LOCK TABLES t WRITE /* " + shard + " */").getBytes(StandardCharsets.UTF_8));
        }
        return locks.lock(statements, shard -> {
            bound.add(shard);
            return pools.get(shard).acquire(servers.get(shard).eventLoop(), 0, "");
        });
    }

    @Test
    void locksAreTakenShardAfterShardInNameOrderAndHeldUntilUnlock() {
        CompletableFuture<Void> locked = lock("s1", "s0");
        assertThat(sent("s0")).containsExactly(query("LOCK TABLES t WRITE /* s0 */"));
        assertThat(sent("s1")).as("the next shard waits for the first one's lock").isEmpty();
        assertThat(running).as("a LOCK TABLES under way can be killed").hasSize(1);

        reply("s0", ok());
        assertThat(sent("s1")).containsExactly(query("LOCK TABLES t WRITE /* s1 */"));
        reply("s1", ok());

        assertThat(locked).isCompleted();
        assertThat(bound).containsExactly("s0", "s1");
        assertThat(running).isEmpty();
        assertThat(locks.held()).isTrue();
        assertThat(pools.values()).allSatisfy(pool -> assertThat(pool.inUse()).as("pinned to the session").isEqualTo(1));

        CompletableFuture<Void> released = locks.release(false);
        assertThat(sent("s0")).containsExactly(query("UNLOCK TABLES"));
        assertThat(sent("s1")).containsExactly(query("UNLOCK TABLES"));
        reply("s0", ok());
        reply("s1", err(1105, "HY000", "gone wrong"));

        assertThat(released).isCompletedExceptionally();
        assertThat(locks.held()).isFalse();
        assertThat(pools.get("s0").inUse()).isZero();
        assertThat(pools.get("s0").open()).as("unlocked: back in its pool").isEqualTo(1);
        assertThat(pools.get("s1").inUse()).isZero();
        assertThat(pools.get("s1").open()).as("UNLOCK TABLES failed: closed, its locks end with it").isZero();
    }

    @Test
    void aShardThatRefusesReleasesWhatWasTakenAndItsErrorIsTheAnswer() {
        CompletableFuture<Void> locked = lock("s0", "s1");
        sent("s0");
        reply("s0", ok());
        sent("s1");
        reply("s1", err(1146, "42S02", "Table 'shop.t' doesn't exist"));

        assertThat(sent("s0")).as("the lock taken on s0 is released").containsExactly(query("UNLOCK TABLES"));
        assertThat(locked).isNotDone();
        reply("s0", ok());

        assertThat(locked).isCompletedExceptionally();
        Throwable cause = locked.handle((ok, error) -> error instanceof CompletionException e ? e.getCause() : error).join();
        assertThat(cause).isInstanceOf(BackendErrorException.class);
        assertThat(((BackendErrorException) cause).packet().errno()).isEqualTo(1146);
        assertThat(locks.held()).isFalse();
        assertThat(running).isEmpty();
        assertThat(pools.values()).allSatisfy(pool -> assertThat(pool.inUse()).isZero());
    }

    @Test
    void aShardWithoutALockConnectionAnswers1100ForTheStatementsTable() {
        CompletableFuture<Void> locked = lock("s0");
        sent("s0");
        reply("s0", ok());
        assertThat(locked).isCompleted();

        CompletableFuture<BackendConnection> refused = locks.connection(new ShardStatement("s1", "SELECT * FROM `shop`.`orders` WHERE id = 1",
                List.of(), Role.REPLICA), null, List.of(), CompletableFuture::completedFuture);
        Throwable cause = refused.handle((ok, error) -> error).join();
        assertThat(cause).isInstanceOf(ShardgateException.class);
        assertThat(((ShardgateException) cause).code()).isEqualTo(ErrorCode.TABLE_NOT_LOCKED);
        assertThat(cause.getMessage()).isEqualTo("Table 'orders' was not locked with LOCK TABLES");
        assertThat(locks.connection(new ShardStatement("s1", "SELECT 1", List.of(), Role.REPLICA), null, List.of(),
                CompletableFuture::completedFuture)).as("no table: runs as usual").isNull();

        BackendConnection pinned = locks.connection(new ShardStatement("s0", "SELECT * FROM orders", List.of(), Role.REPLICA), null,
                List.of(), CompletableFuture::completedFuture).join();
        assertThat(locks.holds("s0", pinned)).as("a read too runs on the lock connection").isTrue();
    }

    @Test
    void locksTakenAfterTheSessionEndedAreReleasedAtOnce() {
        CompletableFuture<Void> locked = lock("s0");
        sent("s0");
        assertThat(locks.endSession()).as("nothing held yet").isFalse();
        reply("s0", ok());

        assertThat(sent("s0")).containsExactly(query("UNLOCK TABLES"));
        reply("s0", ok());
        assertThat(locked).isCompleted();
        assertThat(locks.held()).isFalse();
        assertThat(pools.get("s0").inUse()).isZero();
    }

    @Test
    void ofTwoReleasesAtOnceOnlyOneUnlocksAndGivesTheConnectionsBack() throws Exception {
        CompletableFuture<Void> locked = lock("s0");
        sent("s0");
        reply("s0", ok());
        assertThat(locked).isCompleted();
        // The last statement on the lock connection is still answering: a release waits for its end.
        ShardResultStream last = new ShardResultStream("s0", ColumnCollations.asReported(), stream -> { });
        BackendConnection pinned = locks.connection(new ShardStatement("s0", "SELECT * FROM t", List.of(), Role.PRIMARY), last,
                List.of(), CompletableFuture::completedFuture).join();

        // UNLOCK TABLES on the session's worker, and the session's end (the client left) on another worker.
        List<CompletableFuture<Void>> releases = new ArrayList<>();
        List<Thread> workers = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            CompletableFuture<Void> released = new CompletableFuture<>();
            releases.add(released);
            Thread worker = new Thread(() -> locks.release(false).whenComplete((ok, error) -> {
                if (error != null) {
                    released.completeExceptionally(error);
                } else {
                    released.complete(null);
                }
            }));
            workers.add(worker);
            worker.start();
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        // Until each release waits for that response, or has returned (it had nothing to release).
        while (!workers.stream().allMatch(worker -> worker.getState() == Thread.State.TIMED_WAITING
                || worker.getState() == Thread.State.WAITING || worker.getState() == Thread.State.TERMINATED)
                && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        last.complete(ServerStatus.AUTOCOMMIT, false); // that response ends
        for (Thread worker : workers) {
            worker.join(10_000);
            assertThat(worker.isAlive()).isFalse();
        }
        servers.get("s0").runPendingTasks(); // what the workers left for the connection's loop (a close)

        assertThat(sent("s0")).as("UNLOCK TABLES once").containsExactly(query("UNLOCK TABLES"));
        assertThat(pinned.isOpen()).as("not closed by a second release while UNLOCK TABLES runs on it").isTrue();
        reply("s0", ok());
        assertThat(releases).allSatisfy(released -> assertThat(released).isCompleted());
        assertThat(releases).noneSatisfy(released -> assertThat(released).isCompletedExceptionally());
        assertThat(locks.held()).isFalse();
        assertThat(pools.get("s0").inUse()).as("given back once").isZero();
        assertThat(pools.get("s0").open()).isEqualTo(1);
    }

    @Test
    void withoutLocksStatementsRunAsUsualAndUnlockIsANoOp() {
        assertThat(locks.connection(new ShardStatement("s0", "SELECT * FROM t", List.of(), Role.REPLICA), null, List.of(),
                CompletableFuture::completedFuture)).isNull();
        assertThat(locks.release(false)).isCompleted();
        assertThat(sent("s0")).isEmpty();
    }

    private List<String> sent(String shard) {
        return Packets.received(servers.get(shard));
    }

    private void reply(String shard, MySqlPacket packet) {
        servers.get(shard).writeInbound(packet);
        servers.get(shard).runPendingTasks();
    }
}
