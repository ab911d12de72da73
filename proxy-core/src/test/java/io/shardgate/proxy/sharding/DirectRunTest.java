package io.shardgate.proxy.sharding;

import io.shardgate.proxy.execution.Packets;
import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.shardgate.errors.ErrorCode;
import io.shardgate.errors.ShardgateException;
import io.shardgate.proxy.backend.BackendConnection;
import io.shardgate.proxy.backend.BackendPool;
import io.shardgate.proxy.backend.TestBackendConnections;
import io.shardgate.proxy.execution.ClientChannel;
import io.shardgate.proxy.metrics.ProxyMetrics;
import io.shardgate.proxy.protocol.Capabilities;
import io.shardgate.proxy.protocol.MySqlPacket;
import io.shardgate.proxy.protocol.ServerStatus;
import io.shardgate.router.exec.Role;
import io.shardgate.router.exec.ShardStatement;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A sharded statement whose plan is one route to one shard, run through the one execution primitive
 * ({@link io.shardgate.proxy.execution.Forwarder}): a replica lost before answering hands the read to the
 * shard's primary; one lost after part of its answer fails the statement with the backend-lost error.
 * Backends are connections over {@link EmbeddedChannel}s, handed out by real pools.
 */
class DirectRunTest {
    private final List<ShardWarnings> kept = new java.util.ArrayList<>();
    private static final ShardStatement READ = new ShardStatement("s0", "SELECT c FROM t", List.of(), Role.REPLICA);
    private static final byte[] SQL = "SELECT c FROM t".getBytes(StandardCharsets.UTF_8);

    private final EmbeddedChannel client = new EmbeddedChannel();
    private final EmbeddedChannel replicaServer = new EmbeddedChannel();
    private final EmbeddedChannel primaryServer = new EmbeddedChannel();
    private final BackendPool replicas = pool(replicaServer, "replica");
    private final BackendPool primaries = pool(primaryServer, "primary");
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final Set<BackendConnection> running = ConcurrentHashMap.newKeySet();
    private final List<String> commits = new ArrayList<>();
    private final List<String> asked = new ArrayList<>();

    @AfterEach
    void close() {
        for (EmbeddedChannel channel : List.of(client, replicaServer, primaryServer)) {
            received(channel);
            channel.finishAndReleaseAll();
        }
    }

    private static BackendPool pool(EmbeddedChannel server, String role) {
        BackendConnection connection = TestBackendConnections.over(server, role);
        return new BackendPool(connection.target(), (loop, target, shaping, schema) -> CompletableFuture.completedFuture(connection),
                1, Duration.ofSeconds(5));
    }

    private CompletableFuture<StatementOutcome> start(ShardStatement statement) {
        DirectRun.Connections connections = new DirectRun.Connections() {
            @Override
            public CompletableFuture<BackendConnection> first(ShardStatement shardStatement) {
                asked.add("first " + shardStatement.shard());
                return (shardStatement.role() == Role.REPLICA ? replicas : primaries).acquire(client.eventLoop(), 0, "");
            }

            @Override
            public CompletableFuture<BackendConnection> primary(String shard) {
                asked.add("primary " + shard);
                return primaries.acquire(client.eventLoop(), 0, "");
            }
        };
        ClientChannel out = new ClientChannel(client, Capabilities.CLIENT_PROTOCOL_41 | Capabilities.CLIENT_DEPRECATE_EOF);
        return new DirectRun(connections, statement, SQL, out, new ProxyMetrics(registry, () -> 0), false,
                ServerStatus.AUTOCOMMIT, running, (shard, gtid) -> commits.add(shard + " " + gtid), kept::add).start();
    }

    @Test
    void aReplicaLostBeforeAnsweringHandsTheReadToTheShardsPrimary() {
        CompletableFuture<StatementOutcome> outcome = start(READ);
        List<String> toReplica = received(replicaServer);
        assertThat(toReplica).hasSize(1);
        assertThat(running).hasSize(1);

        replicaServer.close(); // lost before its first byte
        client.runPendingTasks();

        assertThat(asked).containsExactly("first s0", "primary s0");
        assertThat(received(primaryServer)).as("the same statement, now on the primary").isEqualTo(toReplica);
        assertThat(replicas.open()).as("the lost replica connection is discarded").isZero();
        assertThat(registry.counter("shardgate_reads_retried").count()).isEqualTo(1.0);
        assertThat(outcome).isNotDone();

        primaryServer.writeInbound(packet(1, 0x01), columnDefinition(2), packet(3, 1, 'x'), endOfRows(4));
        client.runPendingTasks();

        List<String> answer = received(client);
        assertThat(answer).hasSize(4);
        assertThat(answer.get(2)).as("the row, as the primary sent it").isEqualTo("3:0178");
        assertThat(outcome).isCompleted();
        assertThat(outcome.join().relayedErrno()).isZero();
        assertThat(running).isEmpty();
        assertThat(primaries.inUse()).as("the primary's connection goes back to its pool").isZero();
        assertThat(primaries.open()).as("released (to be reset), not discarded").isEqualTo(1);
    }

    @Test
    void aReplicaLostAfterPartOfItsAnswerFailsWithTheBackendLostError() {
        CompletableFuture<StatementOutcome> outcome = start(READ);
        received(replicaServer);

        replicaServer.writeInbound(packet(1, 0x01), columnDefinition(2));
        replicaServer.close();
        client.runPendingTasks();

        assertThat(asked).as("part of the answer reached the client: no second try").containsExactly("first s0");
        assertThat(received(primaryServer)).isEmpty();
        assertThat(outcome).isCompletedExceptionally();
        Throwable cause = outcome.handle((result, error) -> error).join();
        assertThat(cause).isInstanceOf(ShardgateException.class);
        assertThat(((ShardgateException) cause).code()).isEqualTo(ErrorCode.BACKEND_LOST);
        assertThat(running).isEmpty();
        assertThat(replicas.open()).isZero();
        assertThat(registry.counter("shardgate_reads_retried").count()).isZero();
    }

    @Test
    void aPrimaryLostBeforeAnsweringIsNotRetried() {
        CompletableFuture<StatementOutcome> outcome = start(new ShardStatement("s0", "SELECT c FROM t", List.of(), Role.PRIMARY));
        received(primaryServer);

        primaryServer.close();
        client.runPendingTasks();

        assertThat(asked).containsExactly("first s0");
        assertThat(outcome).isCompletedExceptionally();
        Throwable cause = outcome.handle((result, error) -> error).join();
        assertThat(((ShardgateException) cause).code()).isEqualTo(ErrorCode.BACKEND_LOST);
        assertThat(running).isEmpty();
    }

    @Test
    void aStatementThatWarnedLeavesItsWarningsForShowWarningsBeforeItsConnectionGoesBack() {
        CompletableFuture<StatementOutcome> outcome = start(new ShardStatement("s0", "UPDATE t SET c = 1", List.of(), Role.PRIMARY));
        received(primaryServer);
        primaryServer.writeInbound(packet(1, 0x00, 1, 0, 0x02, 0x00, 1, 0)); // OK: 1 row affected, 1 warning
        client.runPendingTasks();
        assertThat(outcome).as("the statement waits for its warnings").isNotDone();
        assertThat(received(primaryServer)).as("SHOW WARNINGS on the connection that ran the statement")
                .containsExactly("0:03" + java.util.HexFormat.of().formatHex("SHOW WARNINGS".getBytes(java.nio.charset.StandardCharsets.US_ASCII)));
        primaryServer.writeInbound(packet(1, 0x03), columnDefinition(2), columnDefinition(3), columnDefinition(4),
                packet(5, 7, 'W', 'a', 'r', 'n', 'i', 'n', 'g', 4, '1', '2', '6', '5', 3, 'c', 'u', 't'), endOfRows(6));
        client.runPendingTasks();

        assertThat(outcome).isCompleted();
        assertThat(kept).containsExactly(new ShardWarnings(List.of(new ShardWarning("s0", "Warning", 1265, "cut")), 1));
    }

    @Test
    void anAnsweredReadReportsItsRowsAndItsShardForTheDigest() {
        CompletableFuture<StatementOutcome> outcome = start(new ShardStatement("s0", "SELECT c FROM t", List.of(), Role.PRIMARY));
        received(primaryServer);
        primaryServer.writeInbound(packet(1, 0x01), columnDefinition(2), packet(3, 1, 'x'), packet(4, 1, 'y'), endOfRows(5));
        client.runPendingTasks();

        assertThat(received(client)).hasSize(5);
        assertThat(outcome).isCompleted();
        assertThat(outcome.join().rowsSent()).isEqualTo(2);
        assertThat(outcome.join().shards()).isEqualTo(1);
    }

    private static MySqlPacket packet(int sequence, int... bytes) {
        byte[] payload = new byte[bytes.length];
        for (int i = 0; i < bytes.length; i++) {
            payload[i] = (byte) bytes[i];
        }
        return new MySqlPacket(sequence, Unpooled.wrappedBuffer(payload));
    }

    /** A VARCHAR column "c" (text protocol). */
    private static MySqlPacket columnDefinition(int sequence) {
        return packet(sequence, 3, 'd', 'e', 'f', 0, 0, 0, 1, 'c', 0, 0x0c, 45, 0, 80, 0, 0, 0, 0xFD, 0, 0, 0, 0, 0);
    }

    /** The OK (header 0xFE) that ends a result set under CLIENT_DEPRECATE_EOF. */
    private static MySqlPacket endOfRows(int sequence) {
        return packet(sequence, 0xFE, 0x00, 0x00, ServerStatus.AUTOCOMMIT, 0x00, 0x00, 0x00);
    }

    /** Every packet the channel was sent so far, as "sequence:hex", released. */
    private static List<String> received(EmbeddedChannel channel) {
        return Packets.received(channel);
    }
}
