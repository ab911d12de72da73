package io.shardgate.proxy.sharding;

import io.shardgate.proxy.execution.ShardResultStream;
import io.shardgate.proxy.backend.BackendConnection;
import io.shardgate.proxy.backend.BackendPool;
import io.shardgate.proxy.execution.SessionBinding;
import io.shardgate.proxy.execution.StatementRequest;
import io.shardgate.proxy.protocol.Capabilities;
import io.shardgate.proxy.protocol.ColumnDefinition;
import io.shardgate.proxy.protocol.Command;
import io.shardgate.proxy.protocol.MySqlPacket;
import io.shardgate.proxy.routing.CausalPositions;
import io.shardgate.proxy.routing.ShardBackends;
import io.shardgate.replication.gtid.MariaDbGtidPosition;
import io.shardgate.router.exec.Role;
import io.shardgate.router.exec.RowStream;
import io.shardgate.router.exec.ShardCursor;
import io.shardgate.router.exec.ShardStatement;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.BiConsumer;

/** How one statement's plan reaches the shards. */
final class StatementCursor implements ShardCursor, DirectRun.Connections {
    private static final System.Logger LOG = System.getLogger(StatementCursor.class.getName());
    private static final long SHAPING = Capabilities.CLIENT_DEPRECATE_EOF | Capabilities.CLIENT_MULTI_RESULTS
            | Capabilities.CLIENT_PS_MULTI_RESULTS | Capabilities.CLIENT_LONG_FLAG;
    private static final long CLIENT_SHAPING = Capabilities.CLIENT_FOUND_ROWS | Capabilities.CLIENT_IGNORE_SPACE
            | Capabilities.CLIENT_ODBC;

    private final ShardedDeployment deployment;
    private final ShardTransaction transaction;
    private final CausalPositions causal;
    private final Set<BackendConnection> running;
    private final BiConsumer<String, String> committed;
    private final StatementRequest request;
    private final SessionBinding binding;
    private final List<ShardResultStream> streams = new ArrayList<>();
    /** DDL results whose OK counted warnings: their connections wait for {@link #takeWarnings()}. */
    private final List<ShardResultStream> warned = new ArrayList<>();

    /**
     * @param running   the session's connections running a statement now (KILL QUERY stops them)
     * @param committed notes a shard's commit GTID for the session: shard, GTID
     */
    StatementCursor(StatementRequest request, ShardedDeployment deployment, ShardTransaction transaction, CausalPositions causal,
                    Set<BackendConnection> running, BiConsumer<String, String> committed) {
        this.request = request;
        this.deployment = deployment;
        this.transaction = transaction;
        this.causal = causal;
        this.running = running;
        this.committed = committed;
        this.binding = new SessionBinding(request.schema(), request.settings(),
                request.needsLastInsertId() ? OptionalLong.of(request.lastInsertId()) : OptionalLong.empty(), null);
    }

    @Override
    public RowStream execute(ShardStatement statement) {
        String shard = statement.shard();
        String text = request.ddl() && request.shardStatements().containsKey(shard) ? request.shardStatements().get(shard)
                : SqlParameters.inline(statement.sql(), statement.parameters(), request.charset());
        // In the client's character set, which the connection's character_set_client (synced) reads it in.
        byte[] sql = request.charset().encode(text);
        ShardResultStream stream = new ShardResultStream(shard, deployment.collations(), this::handBack);
        streams.add(stream);
        connectionFor(statement, stream).whenComplete((connection, error) -> {
            if (error != null) {
                stream.failBeforeStart(error instanceof CompletionException && error.getCause() != null ? error.getCause() : error);
                return;
            }
            stream.connection(connection);
            running.add(connection);
            MySqlPacket packet = MySqlPacket.command(Command.QUERY, sql);
            try {
                connection.execute(packet, Command.QUERY, stream);
            } catch (RuntimeException e) {
                stream.failBeforeStart(e);
            }
        });
        return stream;
    }

    /**
     * The connection that runs {@code statement}: the open transaction's branch on its shard; else a
     * replica when the statement and the session allow one ({@link io.shardgate.proxy.routing.ReplicaRead}:
     * replica choice, causal wait, the primary as fallback); else a pooled primary connection.
     */
    CompletableFuture<BackendConnection> connectionFor(ShardStatement statement, ShardResultStream stream) {
        String shard = statement.shard();
        ShardBackends backends = deployment.shard(shard);
        CompletableFuture<BackendConnection> branch = transaction.branch(shard, backends, stream, request.write(), streams,
                this::bind, binding::sync);
        if (branch != null) {
            return branch;
        }
        if (statement.role() == Role.REPLICA && request.replicaAllowed() && !backends.replicas().isEmpty()) {
            return replica(backends);
        }
        return bind(backends.primary());
    }

    private CompletableFuture<BackendConnection> replica(ShardBackends backends) {
        MariaDbGtidPosition written = causal.of(backends.shard());
        return deployment.replicaRead().connect(backends, request.maxLagMs(), written, this::bind,
                connection -> connection.owner().release(connection), "sharded session");
    }

    @Override
    public CompletableFuture<BackendConnection> first(ShardStatement statement) {
        return connectionFor(statement, null);
    }

    @Override
    public CompletableFuture<BackendConnection> primary(String shard) {
        return bind(deployment.shard(shard).primary());
    }

    /** A pooled connection in the session's schema, brought to its settings ({@link SessionBinding}). */
    CompletableFuture<BackendConnection> bind(BackendPool pool) {
        return binding.bind(pool, request.loop(), SHAPING | (request.clientCapabilities() & CLIENT_SHAPING));
    }

    /** A stream's response has ended and its reader is done: its connection goes back, unless it is a branch. */
    private void handBack(ShardResultStream stream) {
        BackendConnection connection = stream.connection();
        if (connection == null) {
            return;
        }
        running.remove(connection);
        String gtid = stream.lastGtid();
        if (gtid != null) {
            committed.accept(stream.shard(), gtid);
        }
        if (transaction.isBranch(stream.shard(), connection)) {
            return;
        }
        if (request.ddl() && stream.completion().warnings() > 0 && connection.isOpen()) {
            synchronized (warned) {
                warned.add(stream);
            }
            return;
        }
        if (!connection.isOpen()) {
            connection.owner().discard(connection);
        } else {
            connection.owner().release(connection);
        }
    }

    /**
     * Reads SHOW WARNINGS on each connection whose DDL result counted warnings, then hands those
     * connections back. Called on the worker once every stream is closed; a shard whose warnings
     * cannot be read is logged and left out.
     */
    List<ShardWarning> takeWarnings() {
        List<ShardResultStream> taken;
        synchronized (warned) {
            taken = List.copyOf(warned);
            warned.clear();
        }
        List<ShardWarning> found = new ArrayList<>();
        for (ShardResultStream stream : taken) {
            BackendConnection connection = stream.connection();
            try {
                for (List<byte[]> row : ShardTransaction.join(connection.query("SHOW WARNINGS")).rows()) {
                    found.add(new ShardWarning(stream.shard(), text(row.get(0)), Integer.parseInt(text(row.get(1))), text(row.get(2))));
                }
            } catch (RuntimeException e) {
                LOG.log(System.Logger.Level.WARNING, "cannot read the warnings of a DDL statement on shard " + stream.shard()
                        + ": " + FailureText.of(e));
            } finally {
                if (connection.isOpen()) {
                    connection.owner().release(connection);
                } else {
                    connection.owner().discard(connection);
                }
            }
        }
        return List.copyOf(found);
    }

    private static String text(byte[] value) {
        return value == null ? "" : new String(value, StandardCharsets.UTF_8);
    }

    /**
     * The column definitions of the statement's result as a shard sent them: those of the last shard result
     * opened that has columns (the results of a plan's final statement all have the same; a plan that runs an
     * IN subquery first opens that one before).
     */
    List<ColumnDefinition> firstColumns() {
        for (int i = streams.size() - 1; i >= 0; i--) {
            List<ColumnDefinition> definitions = streams.get(i).definitions();
            if (!definitions.isEmpty()) {
                return definitions;
            }
        }
        return List.of();
    }

    void closeAll() {
        for (ShardResultStream stream : streams) {
            stream.close();
        }
    }

    /** How many distinct shards this statement has run on so far. */
    int shardsTouched() {
        return (int) streams.stream().map(ShardResultStream::shard).distinct().count();
    }
}
