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
    /** Results of subqueries run before the statement: their columns are not the statement's. */
    private final Set<RowStream> subqueryResults = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
    /** Results whose OK or EOF counted warnings: their connections wait for {@link #takeWarnings(long)}. */
    private final List<ShardResultStream> warned = new ArrayList<>();
    /** The statements to run on a stream's connection once its result ended (a join's copies to remove). */
    private final java.util.Map<ShardResultStream, List<ShardStatement.Step>> afterwards = new java.util.concurrent.ConcurrentHashMap<>();
    /**
     * The streams whose connection is a pooled one, the statement's alone (not a transaction's branch, nor a lock
     * connection): decided when the connection comes, since by the time a stream is handed back (on its connection's
     * event loop, after an error) the session may already have ended its transaction or released its locks and given
     * that connection back itself. Each is handed back to its pool once, by the removal from this set.
     */
    private final Set<ShardResultStream> pooled = java.util.concurrent.ConcurrentHashMap.newKeySet();

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
        if (!statement.after().isEmpty()) {
            afterwards.put(stream, statement.after());
            stream.settleLater();
        }
        connectionFor(statement, stream).whenComplete((connection, error) -> {
            if (error != null) {
                stream.failBeforeStart(unwrap(error));
                return;
            }
            stream.connection(connection);
            if (!transaction.isBranch(shard, connection)) {
                pooled.add(stream);
                stream.abandonable();
            }
            running.add(connection);
            if (statement.before().isEmpty()) {
                send(connection, sql, stream);
                return;
            }
            steps(connection, statement.before(), 0).whenComplete((ok, failed) -> {
                if (failed != null) {
                    stream.failBeforeStart(unwrap(failed));
                } else {
                    send(connection, sql, stream);
                }
            });
        });
        return stream;
    }

    private static void send(BackendConnection connection, byte[] sql, ShardResultStream stream) {
        MySqlPacket packet = MySqlPacket.command(Command.QUERY, sql);
        try {
            connection.execute(packet, Command.QUERY, stream);
        } catch (RuntimeException e) {
            stream.failBeforeStart(e);
        }
    }

    private static Throwable unwrap(Throwable error) {
        return error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
    }

    /** Runs {@code steps} from {@code from} one after another on {@code connection}; the first failure ends them. */
    private CompletableFuture<Void> steps(BackendConnection connection, List<ShardStatement.Step> steps, int from) {
        if (from >= steps.size()) {
            return CompletableFuture.completedFuture(null);
        }
        ShardStatement.Step step = steps.get(from);
        String text = SqlParameters.inline(step.sql(), step.parameters(), request.charset());
        CompletableFuture<io.shardgate.proxy.backend.TextResult> ran;
        try {
            ran = connection.query(text);
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
        return ran.thenCompose(result -> steps(connection, steps, from + 1));
    }

    /**
     * The connection that runs {@code statement}: under LOCK TABLES its shard's lock connection ({@link TableLocks});
     * else the open transaction's branch on its shard; else a
     * replica when the statement and the session allow one ({@link io.shardgate.proxy.routing.ReplicaRead}:
     * replica choice, causal wait, the primary as fallback); else a pooled primary connection.
     */
    CompletableFuture<BackendConnection> connectionFor(ShardStatement statement, ShardResultStream stream) {
        String shard = statement.shard();
        ShardBackends backends = deployment.shard(shard);
        CompletableFuture<BackendConnection> locked = transaction.locks().connection(statement, stream, streams, binding::sync);
        if (locked != null) {
            return locked; // under LOCK TABLES: the shard's lock connection, or 1100
        }
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
        for (String before : deployment.inheritedFrom(backends.shard())) {
            if (!causal.of(before).isEmpty()) {
                return bind(backends.primary()); // this session wrote keys that have moved here since
            }
        }
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
            afterwards.remove(stream);
            stream.settle();
            return;
        }
        running.remove(connection);
        String gtid = stream.lastGtid();
        if (gtid != null) {
            committed.accept(stream.shard(), gtid);
        }
        if (stream.completion() != null && stream.completion().warnings() > 0 && connection.isOpen()) {
            // A transaction's branch too: its warnings are read, and it stays the branch.
            synchronized (warned) {
                warned.add(stream);
            }
            return;
        }
        giveBack(stream, connection);
    }

    /**
     * Runs what must run on the connection after the statement (a join's copies removed), then hands it
     * back: to the pool, or to the transaction whose branch it is. A connection on which the removal failed
     * is closed, never used again with a copy in place of a table (a branch's transaction then fails).
     */
    private void giveBack(ShardResultStream stream, BackendConnection connection) {
        List<ShardStatement.Step> after = afterwards.remove(stream);
        if (after == null || !connection.isOpen()) {
            release(stream, connection);
            stream.settle();
            return;
        }
        steps(connection, after, 0).whenComplete((ok, failed) -> {
            try {
                if (failed != null) {
                    LOG.log(System.Logger.Level.WARNING, "closing a connection to shard " + stream.shard()
                            + ": removing a join's copies failed: " + FailureText.of(unwrap(failed)));
                    connection.channel().close();
                }
                release(stream, connection);
            } finally {
                stream.settle();
            }
        });
    }

    private void release(ShardResultStream stream, BackendConnection connection) {
        if (!pooled.remove(stream)) {
            return; // the session's own connection (its owner gives it back), or handed back already
        }
        if (!connection.isOpen()) {
            connection.owner().discard(connection);
        } else {
            connection.owner().release(connection);
        }
    }

    /**
     * Reads SHOW WARNINGS on each connection whose result counted warnings, then hands those connections
     * back (a transaction's branch stays with it). Called on the worker once every stream is closed; a shard
     * whose warnings cannot be read is logged and left out. At most {@code maxErrorCount} rows are kept.
     */
    ShardWarnings takeWarnings(long maxErrorCount) {
        List<ShardResultStream> taken;
        synchronized (warned) {
            taken = List.copyOf(warned);
            warned.clear();
        }
        List<ShardWarning> found = new ArrayList<>();
        long count = 0;
        for (ShardResultStream stream : taken) {
            BackendConnection connection = stream.connection();
            count += stream.completion().warnings();
            try {
                ShardWarnings.read(stream.shard(), ShardTransaction.join(connection.query("SHOW WARNINGS")).rows(), maxErrorCount, found);
            } catch (RuntimeException e) {
                LOG.log(System.Logger.Level.WARNING, "cannot read the warnings of a statement on shard " + stream.shard()
                        + ": " + FailureText.of(e));
            } finally {
                // A transaction's branch stays with it until the transaction ends.
                giveBack(stream, connection);
            }
        }
        return new ShardWarnings(found, count);
    }

    /** Runs a subquery's statements: like {@link #execute}, but their results are not the statement's ({@link #firstColumns()}). */
    @Override
    public ShardCursor forSubquery() {
        return statement -> {
            RowStream stream = execute(statement);
            subqueryResults.add(stream);
            return stream;
        };
    }

    /** The column definitions of the first shard result that has columns (a subquery's result aside). */
    List<ColumnDefinition> firstColumns() {
        for (ShardResultStream stream : streams) {
            if (subqueryResults.contains(stream)) {
                continue;
            }
            List<ColumnDefinition> definitions = stream.definitions();
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
