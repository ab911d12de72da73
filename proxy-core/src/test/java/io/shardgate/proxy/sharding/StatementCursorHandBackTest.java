package io.shardgate.proxy.sharding;

import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.shardgate.proxy.backend.BackendConnection;
import io.shardgate.proxy.backend.BackendPool;
import io.shardgate.proxy.backend.TestBackendConnections;
import io.shardgate.proxy.config.RoutingConfig;
import io.shardgate.proxy.config.TransactionsConfig;
import io.shardgate.proxy.execution.Packets;
import io.shardgate.proxy.execution.StatementRequest;
import io.shardgate.proxy.protocol.ClientCharset;
import io.shardgate.proxy.protocol.MySqlPacket;
import io.shardgate.proxy.protocol.ServerStatus;
import io.shardgate.proxy.routing.CausalPositions;
import io.shardgate.proxy.routing.ShardBackends;
import io.shardgate.proxy.session.SessionSettings;
import io.shardgate.router.exec.Role;
import io.shardgate.router.exec.RowStream;
import io.shardgate.router.exec.ShardStatement;
import io.shardgate.router.schema.SchemaRules;
import io.shardgate.router.schema.Shard;
import io.shardgate.router.schema.ShardedTable;
import io.shardgate.router.schema.ShardingSchema;
import io.shardgate.router.shard.KeyRange;
import io.shardgate.router.vindex.HashVindex;
import io.shardgate.router.vindex.KeyType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.EnumSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static io.shardgate.proxy.execution.Packets.err;
import static io.shardgate.proxy.execution.Packets.ok;
import static io.shardgate.proxy.execution.Packets.query;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * LockTablesIT's flake, without sockets: a statement under LOCK TABLES that a shard answers with an error is handed
 * back on its connection's event loop after its response is complete, and the client's next statement (UNLOCK TABLES)
 * may already have released the locks by then. The hand-back must not give the lock connection back to its pool a
 * second time (it did when it asked "is it a lock connection?" at hand-back time: the pool closed the connection,
 * busy with UNLOCK TABLES, and counted it twice: "UNLOCK TABLES failed on shard s1", in_use -1).
 */
class StatementCursorHandBackTest {
    private final EmbeddedChannel server = new EmbeddedChannel();
    private final BackendConnection lockConnection = TestBackendConnections.over(server, "primary");
    private final BackendPool pool = new BackendPool(lockConnection.target(),
            (loop, target, shaping, schema) -> CompletableFuture.completedFuture(lockConnection), 1, Duration.ofSeconds(5));
    private final EmbeddedChannel otherServer = new EmbeddedChannel();
    private final BackendConnection otherConnection = TestBackendConnections.over(otherServer, "primary");
    private final ShardedDeployment deployment = new ShardedDeployment(
            new ShardingSchema(List.of(new Shard("s0", KeyRange.parse("-80")), new Shard("s1", KeyRange.parse("80-"))),
                    List.of(new SchemaRules("shop", List.of(new ShardedTable("customers", "id", new HashVindex(KeyType.INTEGER))), List.of()))),
            List.of(new ShardBackends("s0", pool, List.of(), null, null), new ShardBackends("s1", new BackendPool(otherConnection.target(),
                    (loop, target, shaping, schema) -> CompletableFuture.completedFuture(otherConnection), 1, Duration.ofSeconds(5)),
                    List.of(), null, null)),
            sequence -> 1, () -> { throw new AssertionError("no XA here"); },
            new TransactionsConfig(TransactionsConfig.CrossShard.REJECT, "s0"), RoutingConfig.DEFAULTS, 1000, 4);
    /** Lets the test hold a hand-back at its first step (the connection leaves the session's running set). */
    private final HeldRemovals running = new HeldRemovals();
    private final TableLocks locks = new TableLocks(running, Runnable::run);
    private final ShardTransaction transaction = new ShardTransaction(deployment, locks, (shard, gtid) -> { });

    @AfterEach
    void close() {
        server.finishAndReleaseAll();
        otherServer.finishAndReleaseAll();
    }

    @Test
    void aLockConnectionsStatementHandedBackAfterUnlockTablesIsNotGivenBackASecondTime() throws Exception {
        SortedMap<String, byte[]> lock = new TreeMap<>(Map.of("s0", "LOCK TABLES customers WRITE".getBytes(StandardCharsets.UTF_8)));
        CompletableFuture<Void> locked = locks.lock(lock, shard -> pool.acquire(server.eventLoop(), 0, ""));
        assertThat(Packets.received(server)).containsExactly(query("LOCK TABLES customers WRITE"));
        server.writeInbound(ok());
        assertThat(locked).isCompleted();
        assertThat(pool.inUse()).isEqualTo(1);

        StatementCursor cursor = new StatementCursor(request(), deployment, transaction, new CausalPositions(), running, (shard, gtid) -> { });
        RowStream stream = cursor.execute(new ShardStatement("s0", "SELECT COUNT(*) FROM orders", List.of(), Role.PRIMARY));
        assertThat(Packets.received(server)).as("on the lock connection").containsExactly(query("SELECT COUNT(*) FROM orders"));
        stream.close(); // the statement's reader is done (it failed on another shard, say)

        // The shard's 1100 arrives on the event loop (this thread); its hand-back is held at its first step.
        running.hold = true;
        Thread eventLoop = new Thread(() -> server.writeInbound(err(1100, "HY000", "Table 'orders' was not locked with LOCK TABLES")));
        eventLoop.start();
        assertThat(running.holding.await(10, TimeUnit.SECONDS)).as("the hand-back started").isTrue();

        // The client's next statement: UNLOCK TABLES, on the session's worker, while that hand-back is still under way.
        CompletableFuture<Void> released = locks.release(false);
        assertThat(Packets.received(server)).containsExactly(query("UNLOCK TABLES"));
        running.go.countDown();
        eventLoop.join(10_000);
        assertThat(eventLoop.isAlive()).isFalse();

        assertThat(lockConnection.isOpen()).as("not closed under UNLOCK TABLES by a second hand-back").isTrue();
        assertThat(pool.inUse()).as("still lent, to the UNLOCK TABLES").isEqualTo(1);
        server.writeInbound(ok());
        assertThat(released).isCompleted();
        assertThat(released.isCompletedExceptionally()).isFalse();
        assertThat(pool.inUse()).as("given back once").isZero();
        assertThat(Packets.received(server)).as("reset once on its way back (its session state is not tracked)").containsExactly("0:1f");
        server.writeInbound(ok());
        assertThat(pool.idle()).as("once in the idle list").isEqualTo(1);
        assertThat(pool.open()).isEqualTo(1);
    }

    private StatementRequest request() {
        return new StatementRequest("SELECT COUNT(*) FROM orders", List.of(), EnumSet.of(StatementRequest.Option.AUTOCOMMIT),
                new StatementRequest.Session("", SessionSettings.DEFAULTS, 0, server.eventLoop(), 0, ClientCharset.UTF8MB4), 0, Map.of());
    }

    /** A running set whose removals wait, while {@link #hold} is set, until the test lets them go on. */
    private static final class HeldRemovals extends java.util.AbstractSet<BackendConnection> {
        private final Set<BackendConnection> set = ConcurrentHashMap.newKeySet();
        private final CountDownLatch holding = new CountDownLatch(1);
        private final CountDownLatch go = new CountDownLatch(1);
        private volatile boolean hold;

        @Override
        public boolean add(BackendConnection connection) {
            return set.add(connection);
        }

        @Override
        public boolean remove(Object connection) {
            if (hold) {
                holding.countDown();
                try {
                    go.await(10, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            return set.remove(connection);
        }

        @Override
        public java.util.Iterator<BackendConnection> iterator() {
            return set.iterator();
        }

        @Override
        public int size() {
            return set.size();
        }
    }
}
