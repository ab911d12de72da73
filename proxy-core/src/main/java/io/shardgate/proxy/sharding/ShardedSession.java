package io.shardgate.proxy.sharding;

import io.shardgate.proxy.backend.BackendConnection;
import io.shardgate.proxy.backend.BackendPool;
import io.shardgate.proxy.config.TransactionsConfig;
import io.shardgate.proxy.error.BackendErrorException;
import io.shardgate.errors.ErrorCode;
import io.shardgate.proxy.protocol.Capabilities;
import io.shardgate.proxy.protocol.Command;
import io.shardgate.proxy.protocol.ColumnDefinition;
import io.shardgate.proxy.protocol.MySqlPacket;
import io.shardgate.proxy.protocol.ServerStatus;
import io.shardgate.proxy.routing.CausalPositions;
import io.shardgate.proxy.routing.ShardBackends;
import io.shardgate.proxy.sharding.xa.XaTransactions;
import io.shardgate.replication.gtid.MariaDbGtid;
import io.shardgate.replication.gtid.MariaDbGtidPosition;
import io.shardgate.router.exec.Completion;
import io.shardgate.router.exec.Role;
import io.shardgate.router.exec.RowStream;
import io.shardgate.router.exec.ShardCursor;
import io.shardgate.router.exec.ShardStatement;
import io.shardgate.router.plan.Execution;
import io.shardgate.router.plan.InsertSplit;
import io.shardgate.router.plan.Plan;
import io.shardgate.router.plan.PlanNode;
import io.shardgate.router.plan.Route;
import io.shardgate.router.plan.RouteVariant;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * A client session in a sharded deployment. Each statement is planned, and its plan runs on a
 * worker thread with a cursor that reaches the shards through the backend pools: outside a
 * transaction each shard statement takes a pooled connection (a replica's when the statement and
 * the session allow it) and gives it back when its response is read; inside one, the session holds
 * one branch connection per shard it touched, started with START TRANSACTION or, with
 * {@code transactions.cross_shard: xa}, XA START, and COMMIT commits them together (two-phase
 * when more than one shard was written).
 *
 * <p>Commands of one session never overlap (the front end runs them one at a time), so the
 * session's state needs no lock beyond the hand-over between the client's event loop and the
 * worker, which the executor's submit and the future's completion order.
 */
public final class ShardedSession {
    private static final System.Logger LOG = System.getLogger(ShardedSession.class.getName());
    private static final long SHAPING = Capabilities.CLIENT_DEPRECATE_EOF | Capabilities.CLIENT_MULTI_RESULTS
            | Capabilities.CLIENT_PS_MULTI_RESULTS | Capabilities.CLIENT_LONG_FLAG;
    private static final long CLIENT_SHAPING = Capabilities.CLIENT_FOUND_ROWS | Capabilities.CLIENT_IGNORE_SPACE
            | Capabilities.CLIENT_ODBC;

    private final ShardedDeployment deployment;
    /** The shards' branch connections of the open transaction, in the order first touched. */
    private final Map<String, CompletableFuture<BackendConnection>> branches = new LinkedHashMap<>();
    /** The last stream on each branch: the next statement on that branch waits for its response to end. */
    private final Map<String, ShardResultStream> branchStreams = new HashMap<>();
    private final Set<String> written = new HashSet<>();
    /** What each shard's replicas must have applied before they serve this session: its writes, and tokens presented. */
    private final CausalPositions causal;
    /** Connections running a statement of this session now, for KILL QUERY. */
    private final Set<BackendConnection> running = java.util.concurrent.ConcurrentHashMap.newKeySet();
    private boolean open;
    private boolean readOnly;
    private List<ShardWarning> warnings = List.of();
    /** SET TRANSACTION for the open transaction, run on each branch before it starts. */
    private String beforeStart;
    private XaTransactions.Global global;

    ShardedSession(ShardedDeployment deployment, CausalPositions causal) {
        this.deployment = deployment;
        this.causal = java.util.Objects.requireNonNull(causal, "causal is null");
    }

    /** The backend connections running a statement of this session right now (KILL QUERY stops them). */
    public List<BackendConnection> running() {
        return List.copyOf(running);
    }

    /** Whether a transaction is open (explicitly, or implicitly with autocommit off). */
    public synchronized boolean inTransaction() {
        return open;
    }

    /** The status flags the session's responses carry. */
    public synchronized int status(boolean autocommit) {
        return (autocommit ? ServerStatus.AUTOCOMMIT : 0) | (open ? ServerStatus.IN_TRANS : 0)
                | (open && readOnly ? ServerStatus.IN_TRANS_READONLY : 0);
    }

    /**
     * COM_STMT_PREPARE: the statement's plan (a refusal fails the future with the planner's error) and its
     * metadata, read on a shard the plan routes to (see {@link ShardedPrepare}); nothing is sent to the client.
     */
    public CompletableFuture<ShardedPrepare.Metadata> prepare(StatementRequest request) {
        ShardedPrepare.Source source;
        try {
            source = ShardedPrepare.source(deployment.plan(request.sql(), request.schema()), deployment.schema());
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
        if (source.shard() == null) {
            return CompletableFuture.completedFuture(new ShardedPrepare.Metadata(source.parameters(), source.localColumns(), 0));
        }
        // A pooled primary connection even inside a transaction: preparing reads no rows and must not start a branch.
        return new Cursor(request).bind(deployment.shard(source.shard()).primary())
                .thenCompose(connection -> ShardedPrepare.prepareOn(connection, source, request.charset()));
    }

    /** Runs a planned statement and writes its response; completes with what it did, or fails before or while answering. */
    public CompletableFuture<StatementOutcome> execute(StatementRequest request, ClientChannel out) {
        Plan plan;
        try {
            plan = deployment.plan(request.sql(), request.schema());
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
        CompletableFuture<StatementOutcome> direct = direct(plan, request, out);
        return direct != null ? direct : submit(() -> run(plan, request, out));
    }

    /**
     * A statement whose plan is one route to one shard, outside a transaction, runs without a plan
     * worker: its response is relayed on the backend connection's event loop ({@link DirectRelay}).
     * Null when the statement needs the worker.
     */
    private CompletableFuture<StatementOutcome> direct(Plan plan, StatementRequest request, ClientChannel out) {
        synchronized (this) {
            if (open || !request.autocommit() || request.ddl()) {
                return null;
            }
        }
        ShardStatement statement;
        byte[] sql;
        try {
            if (!(plan.root() instanceof Route route) || route.variant() == RouteVariant.ALL
                    || plan.parameterCount() != request.parameters().size()) {
                return null;
            }
            List<ShardStatement> statements = route.statements(request.parameters());
            if (statements.size() != 1) {
                return null;
            }
            statement = statements.get(0);
            // In the client's character set, which the connection's character_set_client (synced) reads it in.
            sql = request.charset().encode(SqlParameters.inline(statement.sql(), statement.parameters(), request.charset()));
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
        Cursor cursor = new Cursor(request);
        CompletableFuture<StatementOutcome> result = new CompletableFuture<>();
        int status = status(request.autocommit());
        cursor.connectionFor(statement, null).whenComplete((connection, error) -> {
            if (error != null) {
                result.completeExceptionally(error instanceof CompletionException && error.getCause() != null ? error.getCause() : error);
                return;
            }
            running.add(connection);
            DirectRelay relay = new DirectRelay(connection, out, request.binary(), status, (done, failure) -> {
                running.remove(connection);
                if (failure != null || !connection.isOpen()) {
                    connection.owner().discard(connection);
                    return;
                }
                if (done.lastGtid() != null) {
                    noteCommit(statement.shard(), done.lastGtid());
                }
                connection.owner().release(connection);
            });
            relay.outcome().whenComplete((outcome, failure) -> {
                if (failure != null) {
                    result.completeExceptionally(failure);
                } else {
                    result.complete(outcome);
                }
            });
            try {
                connection.execute(MySqlPacket.command(Command.QUERY, sql), Command.QUERY, relay);
            } catch (RuntimeException e) {
                connection.owner().discard(connection);
                result.completeExceptionally(e);
            }
        });
        return result;
    }

    /**
     * The warnings the shards gave for this session's last DDL statement, each naming its shard,
     * until {@link #forgetWarnings()}: what SHOW WARNINGS after it lists (MyRocks' collation
     * warning 1815, for one). Empty after any other statement.
     */
    public synchronized List<ShardWarning> lastWarnings() {
        return warnings;
    }

    /** A statement other than SHOW WARNINGS started: the last DDL statement's warnings are gone. */
    public synchronized void forgetWarnings() {
        warnings = List.of();
    }

    /**
     * BEGIN / START TRANSACTION: commits an open transaction first, as MySQL does; branches start
     * lazily. {@code setTransaction}: the session's pending SET TRANSACTION (isolation level, access
     * mode for the next transaction only), run on each branch before it starts; null for none.
     */
    public CompletableFuture<Void> begin(boolean readOnlyTransaction, String setTransaction) {
        return submit(() -> {
            if (open) {
                commitBranches();
            }
            synchronized (this) {
                open = true;
                readOnly = readOnlyTransaction;
                // MariaDB's XA COMMIT does not end a one-shot SET TRANSACTION (nor does a reset of the
                // connection): the branch takes it as a session setting instead, and is reset afterwards.
                beforeStart = setTransaction == null ? null : sessionScoped(setTransaction);
                global = deployment.transactions().crossShard() == TransactionsConfig.CrossShard.XA ? deployment.xa().begin() : null;
            }
            return null;
        });
    }

    /** {@code SET TRANSACTION ...} as {@code SET SESSION TRANSACTION ...}, read by its tokens; other text as it is. */
    static String sessionScoped(String setTransaction) {
        io.shardgate.router.classify.SqlLexer lexer = new io.shardgate.router.classify.SqlLexer(setTransaction);
        lexer.next();
        if (!lexer.isWord("SET")) {
            return setTransaction;
        }
        lexer.next();
        if (!lexer.isWord("TRANSACTION")) {
            return setTransaction;
        }
        return setTransaction.substring(0, lexer.start()) + "SESSION " + setTransaction.substring(lexer.start());
    }

    /** COMMIT of the open transaction (a no-op without one). */
    public CompletableFuture<Void> commit() {
        return submit(() -> {
            commitBranches();
            return null;
        });
    }

    /** ROLLBACK of the open transaction (a no-op without one). */
    public CompletableFuture<Void> rollback() {
        return submit(() -> {
            rollbackBranches();
            return null;
        });
    }

    /** The session ends: an open transaction is rolled back and its connections go back to the pools. */
    public void close() {
        if (!hasBranches()) {
            return;
        }
        submit(() -> {
            rollbackBranches();
            return null;
        }).whenComplete((ok, error) -> {
            if (error != null) {
                LOG.log(System.Logger.Level.WARNING, "rolling back a closed session's transaction failed", error);
            }
        });
    }

    private synchronized boolean hasBranches() {
        return open || !branches.isEmpty();
    }

    private <T> CompletableFuture<T> submit(java.util.concurrent.Callable<T> work) {
        CompletableFuture<T> result = new CompletableFuture<>();
        try {
            deployment.workers().execute(() -> {
                try {
                    result.complete(work.call());
                } catch (Throwable e) {
                    result.completeExceptionally(e);
                }
            });
        } catch (java.util.concurrent.RejectedExecutionException e) {
            result.completeExceptionally(ErrorCode.INTERNAL.exception("no worker thread for a sharded statement: " + e.getMessage()));
        }
        return result;
    }

    // ----- statements -----

    private StatementOutcome run(Plan plan, StatementRequest request, ClientChannel out) {
        if (request.ddl() && open) {
            commitBranches();
        }
        if (request.ddl()) {
            deployment.collations().forgetAll();
        }
        boolean implicit = false;
        synchronized (this) {
            if (!open && !request.autocommit() && !request.ddl()) {
                open = true;
                readOnly = false;
                global = xaMode() ? deployment.xa().begin() : null;
            } else if (!open && request.write() && !request.ddl() && xaMode() && touchesSeveralShards(plan.root(), request)) {
                // An autocommit write to several shards is all or nothing: one XA transaction of its own.
                open = true;
                readOnly = false;
                implicit = true;
                global = deployment.xa().begin();
            }
        }
        Cursor cursor = new Cursor(request);
        ResultWriter writer = new ResultWriter(out, request.binary());
        Completion completion = null;
        try {
            try (RowStream root = plan.open(new Execution(cursor, request.parameters(), deployment.sequences(), deployment.maxBufferedRows()))) {
                List<io.shardgate.router.exec.ColumnMeta> metas = root.columns();
                if (metas.isEmpty()) {
                    while (root.next() != null) {
                        // A write: no rows, only its completion.
                    }
                    completion = root.completion();
                } else {
                    List<ColumnDefinition> columns = OutputColumns.of(metas, cursor.firstColumns());
                    // The first row is read before anything is sent, so a shard that fails at once still gets a clean ERR.
                    io.shardgate.router.exec.Row first = root.next();
                    writer.header(columns, status(request.autocommit()));
                    for (io.shardgate.router.exec.Row row = first; row != null; row = root.next()) {
                        writer.row(columns, row);
                    }
                    writer.end(status(request.autocommit()), root.completion().warnings());
                }
            } finally {
                // Shard results the plan stopped reading (LIMIT) are drained now, so their connections come back.
                cursor.closeAll();
                List<ShardWarning> found = cursor.takeWarnings();
                if (request.ddl()) {
                    synchronized (this) {
                        warnings = found;
                    }
                }
            }
            if (implicit) {
                commitBranches();
            }
        } catch (RuntimeException e) {
            if (implicit || breaksTransaction(e)) {
                // The transaction is gone on the shard that reported it; the others must follow.
                safeRollback();
            }
            throw e;
        }
        if (completion == null) {
            return new StatementOutcome(0, 0, status(request.autocommit()));
        }
        writer.ok(completion, status(request.autocommit()));
        return new StatementOutcome(completion.lastInsertId(), 0, status(request.autocommit()));
    }

    private boolean xaMode() {
        return deployment.transactions().crossShard() == TransactionsConfig.CrossShard.XA;
    }

    /**
     * Whether the error ended the transaction on some shard, so that no branch may commit: a deadlock
     * (the shard rolled its branch back), or a shard connection lost mid-statement (the branch died with
     * it). The other branches are rolled back at once, so their locks do not outlive it.
     */
    private static boolean breaksTransaction(RuntimeException e) {
        Throwable cause = e instanceof CompletionException && e.getCause() != null ? e.getCause() : e;
        if (cause instanceof io.shardgate.errors.ShardgateException shardgate) {
            return shardgate.code() == ErrorCode.BACKEND_LOST;
        }
        return cause instanceof BackendErrorException backend && (backend.packet().errno() == 1213 || backend.packet().errno() == 1180);
    }

    /** Whether a write plan may reach more than one shard with these parameters (without drawing sequence values). */
    private static boolean touchesSeveralShards(PlanNode node, StatementRequest request) {
        Set<String> shards = new HashSet<>();
        return collect(node, request, shards) || shards.size() > 1;
    }

    private static boolean collect(PlanNode node, StatementRequest request, Set<String> shards) {
        if (node instanceof Route route) {
            if (route.variant() == RouteVariant.ALL) {
                return true;
            }
            shards.addAll(route.selection().shards(request.parameters()));
            return false;
        }
        if (node instanceof InsertSplit split) {
            return split.rows().size() > 1;
        }
        for (PlanNode input : node.inputs()) {
            if (collect(input, request, shards)) {
                return true;
            }
        }
        return false;
    }

    // ----- transactions -----

    private void commitBranches() {
        finishBranches(true);
    }

    private void rollbackBranches() {
        finishBranches(false);
    }

    /** Commits or rolls back every branch (with XA when the transaction is one), then ends the transaction. */
    private void finishBranches(boolean commit) {
        Map<String, BackendConnection> held = awaitBranches();
        XaTransactions.Global xa;
        synchronized (this) {
            xa = global;
        }
        // The GTID each branch's commit got, by shard: the session's causal position on that shard.
        Map<String, String> commits = new LinkedHashMap<>();
        try {
            if (xa != null && !held.isEmpty()) {
                if (commit) {
                    commits.putAll(xa.commit(held));
                } else {
                    xa.rollback(held);
                }
            } else if (xa == null) {
                for (Map.Entry<String, BackendConnection> branch : held.entrySet()) {
                    if (commit) {
                        // Noted at once: a later branch's failure does not undo this branch's commit.
                        String gtid = join(CommitGtid.run(branch.getValue(), "COMMIT"));
                        if (gtid != null) {
                            noteCommit(branch.getKey(), gtid);
                        }
                    } else {
                        join(branch.getValue().run(Command.QUERY, "ROLLBACK"));
                    }
                }
            }
        } catch (RuntimeException e) {
            endTransaction(held, true);
            throw e;
        }
        commits.forEach(this::noteCommit);
        endTransaction(held, false);
    }

    /** The session committed {@code gtid} on {@code shard}: its later reads there, and its token, need it. */
    private void noteCommit(String shard, String gtid) {
        try {
            MariaDbGtidPosition position = causal.committed(shard, MariaDbGtid.parse(gtid));
            deployment.shard(shard).observeCommit(position, System.nanoTime());
        } catch (IllegalArgumentException e) {
            LOG.log(System.Logger.Level.DEBUG, "shard " + shard + " reported an unreadable GTID " + gtid);
        }
    }

    private void safeRollback() {
        try {
            rollbackBranches();
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "rolling back a failed transaction failed", e);
        }
    }

    /** The branch connections, once every response on them has ended; branches that failed to start are left out. */
    private Map<String, BackendConnection> awaitBranches() {
        Map<String, CompletableFuture<BackendConnection>> started;
        synchronized (this) {
            started = new LinkedHashMap<>(branches);
        }
        Map<String, BackendConnection> held = new LinkedHashMap<>();
        for (Map.Entry<String, CompletableFuture<BackendConnection>> branch : started.entrySet()) {
            BackendConnection connection;
            try {
                connection = branch.getValue().join();
            } catch (RuntimeException e) {
                continue;
            }
            ShardResultStream last;
            synchronized (this) {
                last = branchStreams.get(branch.getKey());
            }
            if (last != null) {
                last.close();
                last.awaitComplete();
            }
            held.put(branch.getKey(), connection);
        }
        return held;
    }

    /** Ends the transaction: branch connections go back to their pools (closed when {@code broken}). */
    private void endTransaction(Map<String, BackendConnection> held, boolean broken) {
        boolean oneShot;
        synchronized (this) {
            // A branch that took the transaction's SET TRANSACTION as a session setting is reset before reuse.
            oneShot = beforeStart != null;
            open = false;
            readOnly = false;
            beforeStart = null;
            global = null;
            branches.clear();
            branchStreams.clear();
            written.clear();
        }
        for (BackendConnection connection : held.values()) {
            if (broken || oneShot || !connection.isOpen()) {
                connection.markUntracked();
            }
            connection.owner().release(connection);
        }
    }

    private static <T> T join(CompletableFuture<T> future) {
        try {
            return future.join();
        } catch (CompletionException e) {
            throw e.getCause() instanceof RuntimeException runtime ? runtime : e;
        }
    }

    // ----- the cursor -----

    /** How one statement's plan reaches the shards. */
    private final class Cursor implements ShardCursor {
        private final StatementRequest request;
        private final List<ShardResultStream> streams = new ArrayList<>();
        /** DDL results whose OK counted warnings: their connections wait for {@link #takeWarnings()}. */
        private final List<ShardResultStream> warned = new ArrayList<>();

        Cursor(StatementRequest request) {
            this.request = request;
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

        private CompletableFuture<BackendConnection> connectionFor(ShardStatement statement, ShardResultStream stream) {
            String shard = statement.shard();
            ShardBackends backends = deployment.shard(shard);
            synchronized (ShardedSession.this) {
                if (open) {
                    return branch(shard, backends, stream);
                }
            }
            if (statement.role() == Role.REPLICA && request.replicaAllowed() && !backends.replicas().isEmpty()) {
                return replica(backends);
            }
            return bind(backends.primary());
        }

        private CompletableFuture<BackendConnection> branch(String shard, ShardBackends backends, ShardResultStream stream) {
            if (request.write()) {
                if (readOnly) {
                    return CompletableFuture.failedFuture(new BackendErrorException(new io.shardgate.proxy.protocol.ErrPacket(1792,
                            "25006", "Cannot execute statement in a READ ONLY transaction")));
                }
                if (!xaMode() && !written.isEmpty() && !written.contains(shard)) {
                    return CompletableFuture.failedFuture(ErrorCode.CROSS_SHARD_TRANSACTION.exception(shard, String.join(", ", written)));
                }
                written.add(shard);
            }
            CompletableFuture<BackendConnection> branch = branches.get(shard);
            ShardResultStream previous = branchStreams.put(shard, stream);
            if (branch == null) {
                XaTransactions.Global xa = global;
                String start = readOnly ? "START TRANSACTION READ ONLY" : "START TRANSACTION";
                String before = beforeStart;
                branch = bind(backends.primary()).thenCompose(connection -> (before == null ? CompletableFuture.<Void>completedFuture(null)
                        : connection.run(Command.QUERY, before))
                        .thenCompose(ok -> xa != null ? xa.start(shard, connection) : connection.run(Command.QUERY, start))
                        .handle((ok, error) -> {
                    if (error != null) {
                        connection.markUntracked();
                        connection.owner().release(connection);
                        throw error instanceof CompletionException e ? e : new CompletionException(error);
                    }
                    return connection;
                }));
                branches.put(shard, branch);
                return branch;
            }
            if (previous != null && streams.contains(previous) && !previous.isComplete()) {
                return CompletableFuture.failedFuture(ErrorCode.UNSUPPORTED.exception(
                        "two statements on shard " + shard + " at once inside a transaction (a UNION or subquery over one sharded table)"));
            }
            CompletableFuture<Void> idle = previous == null ? CompletableFuture.completedFuture(null)
                    : CompletableFuture.runAsync(previous::awaitComplete, deployment.workers());
            return branch.thenCombine(idle, (connection, ok) -> connection).thenCompose(this::sync);
        }

        private CompletableFuture<BackendConnection> replica(ShardBackends backends) {
            MariaDbGtidPosition written = causal.of(backends.shard());
            return deployment.replicaRead().connect(backends, request.maxLagMs(), written, this::bind,
                    connection -> connection.owner().release(connection), "sharded session");
        }

        /** A pooled connection in the session's schema, brought to its settings. */
        private CompletableFuture<BackendConnection> bind(BackendPool pool) {
            long shaping = SHAPING | (request.clientCapabilities() & CLIENT_SHAPING);
            return pool.acquire(request.loop(), shaping, request.schema(), request.settings()).thenCompose(connection -> {
                pool.countServed();
                return sync(connection).handle((ok, error) -> {
                    if (error != null) {
                        connection.markUntracked();
                        pool.release(connection);
                        throw error instanceof CompletionException e ? e : new CompletionException(error);
                    }
                    return connection;
                });
            });
        }

        /** Brings a connection to the session's schema, settings and (when read) LAST_INSERT_ID(). */
        private CompletableFuture<BackendConnection> sync(BackendConnection connection) {
            CompletableFuture<Void> done = CompletableFuture.completedFuture(null);
            if (!request.schema().isEmpty() && !request.schema().equals(connection.schema())) {
                done = connection.run(Command.INIT_DB, request.schema()).thenRun(() -> connection.schema(request.schema()));
            }
            java.util.OptionalLong lastInsertId = request.needsLastInsertId() ? java.util.OptionalLong.of(request.lastInsertId())
                    : java.util.OptionalLong.empty();
            return done.thenCompose(ok -> connection.adopt(request.settings(), lastInsertId)).thenApply(ok -> connection);
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
                noteCommit(stream.shard(), gtid);
            }
            synchronized (ShardedSession.this) {
                CompletableFuture<BackendConnection> branch = branches.get(stream.shard());
                if (branch != null && branch.isDone() && !branch.isCompletedExceptionally() && branch.join() == connection) {
                    return;
                }
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
                    for (List<byte[]> row : join(connection.query("SHOW WARNINGS")).rows()) {
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

        /** The column definitions of the first shard result that has columns. */
        List<ColumnDefinition> firstColumns() {
            for (ShardResultStream stream : streams) {
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
    }
}
