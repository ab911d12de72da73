package io.shardgate.proxy.sharding;

import io.shardgate.proxy.backend.BackendConnection;
import io.shardgate.proxy.error.BackendErrorException;
import io.shardgate.proxy.execution.ClientChannel;
import io.shardgate.proxy.metrics.ProxyMetrics;
import io.shardgate.proxy.execution.Relay;
import io.shardgate.proxy.execution.ResultWriter;
import io.shardgate.proxy.execution.StatementRequest;
import io.shardgate.errors.ErrorCode;
import io.shardgate.proxy.protocol.Capabilities;
import io.shardgate.proxy.protocol.Command;
import io.shardgate.proxy.protocol.ColumnDefinition;
import io.shardgate.proxy.routing.CausalPositions;
import io.shardgate.proxy.routing.ShardBackends;
import io.shardgate.proxy.sharding.xa.XaTransactions;
import io.shardgate.replication.gtid.MariaDbGtid;
import io.shardgate.replication.gtid.MariaDbGtidPosition;
import io.shardgate.router.exec.Completion;
import io.shardgate.router.exec.RowStream;
import io.shardgate.router.exec.ShardStatement;
import io.shardgate.router.plan.Execution;
import io.shardgate.router.plan.Plan;
import io.shardgate.router.plan.Route;
import io.shardgate.router.plan.RouteVariant;
import io.shardgate.router.schema.ShardingSchema;

import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * A client session in a sharded deployment. Each statement is planned; a plan that is one route to
 * one shard outside a transaction is relayed from its shard on the connection's event loop (the
 * fast case of execution, {@link Relay}); any other runs on a worker thread with a
 * {@link StatementCursor} that reaches the shards through the backend pools: outside a
 * transaction each shard statement takes a pooled connection (a replica's when the statement and
 * the session allow it) and gives it back when its response is read; inside one, on the branch
 * connections of the session's {@link ShardTransaction}.
 *
 * <p>Commands of one session never overlap (the front end runs them one at a time), so the
 * session's state needs no lock beyond the hand-over between the client's event loop and the
 * worker, which the executor's submit and the future's completion order.
 */
public final class ShardedSession {
    private static final System.Logger LOG = System.getLogger(ShardedSession.class.getName());

    private final ShardedDeployment deployment;
    private final ShardTransaction transaction;
    /** What each shard's replicas must have applied before they serve this session: its writes, and tokens presented. */
    private final CausalPositions causal;
    /** Connections running a statement of this session now, for KILL QUERY. */
    private final Set<BackendConnection> running = java.util.concurrent.ConcurrentHashMap.newKeySet();
    private final SessionWrites writes;
    private ShardWarnings warnings = ShardWarnings.NONE;

    ShardedSession(ShardedDeployment deployment, CausalPositions causal) {
        this.deployment = deployment;
        this.causal = java.util.Objects.requireNonNull(causal, "causal is null");
        this.transaction = new ShardTransaction(deployment, new TableLocks(running, deployment.workers()), this::noteCommit);
        this.writes = new SessionWrites(deployment.holds(), transaction, deployment::schema);
    }

    /** The backend connections running a statement of this session right now (KILL QUERY stops them). */
    public List<BackendConnection> running() {
        return List.copyOf(running);
    }

    /** Whether a transaction is open (explicitly, or implicitly with autocommit off). */
    public boolean inTransaction() {
        return transaction.isOpen();
    }

    /** The status flags the session's responses carry. */
    public int status(boolean autocommit) {
        return transaction.status(autocommit);
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
            return refused(e, request);
        }
        if (source.shard() == null) {
            return CompletableFuture.completedFuture(new ShardedPrepare.Metadata(source.parameters(), source.localColumns(), 0));
        }
        // A pooled primary connection even inside a transaction (preparing must not start a branch); under LOCK TABLES, a lock connection.
        StatementCursor cursor = cursor(request);
        return transaction.locks().prepare(source, request.charset(), cursor, () -> cursor.bind(deployment.shard(source.shard()).primary()));
    }

    /** Runs a planned statement and writes its response; completes with what it did, or fails before or while answering. */
    public CompletableFuture<StatementOutcome> execute(StatementRequest request, ClientChannel out, ProxyMetrics metrics) {
        ShardingSchema map = deployment.schema();
        Plan plan;
        try {
            plan = deployment.plan(request.sql(), request.schema());
        } catch (RuntimeException e) {
            return refused(e, request);
        }
        return start(plan, map, request, out, metrics);
    }

    /** Runs the planned statement; a write first passes the cutover's holds ({@link SessionWrites}). */
    private CompletableFuture<StatementOutcome> start(Plan plan, ShardingSchema map, StatementRequest request, ClientChannel out,
                                                      ProxyMetrics metrics) {
        if (!request.write() && !request.ddl()) {
            return launch(plan, request, out, metrics);
        }
        return writes.admitted(plan, map, request, () -> execute(request, out, metrics), () -> launch(plan, request, out, metrics));
    }

    private CompletableFuture<StatementOutcome> launch(Plan plan, StatementRequest request, ClientChannel out, ProxyMetrics metrics) {
        CompletableFuture<StatementOutcome> direct = direct(plan, request, out, metrics);
        return direct != null ? direct : submit(() -> run(plan, request, out));
    }

    /** COM_STMT_EXECUTE with CURSOR_TYPE_READ_ONLY of a read: its result stays open for COM_STMT_FETCH ({@link PlanCursor}). */
    public CompletableFuture<PlanCursor.Opened> openCursor(StatementRequest request, int statementId, ClientChannel out) {
        return PlanCursor.of(statementId, request, cursor(request), transaction, deployment, this::keepWarnings).open(out);
    }

    /**
     * The planner's refusal of the request's statement; one its parser could not read is checked on the first
     * shard's primary first, whose syntax error, if it finds one, is the answer instead ({@link SyntaxCheck}).
     */
    private <T> CompletableFuture<T> refused(RuntimeException planError, StatementRequest request) {
        if (!SyntaxCheck.applies(planError)) {
            return CompletableFuture.failedFuture(planError);
        }
        // A pooled primary connection even inside a transaction: preparing runs nothing and must not start a branch.
        return SyntaxCheck.refusal(planError, cursor(request).bind(deployment.shard(deployment.schema().defaultShard()).primary()),
                request.sql(), request.charset());
    }

    /**
     * {@link #execute} when the statement's plan is a {@link Route}; null, with nothing done, when it
     * plans to anything else or not at all (the caller then runs the statement another way).
     */
    public CompletableFuture<StatementOutcome> executeRoute(StatementRequest request, ClientChannel out, ProxyMetrics metrics) {
        ShardingSchema map = deployment.schema();
        Plan plan;
        try {
            plan = deployment.plan(request.sql(), request.schema());
        } catch (RuntimeException e) {
            return null;
        }
        if (!(plan.root() instanceof Route)) {
            return null;
        }
        return start(plan, map, request, out, metrics);
    }

    /**
     * A statement whose plan is one route to one shard, outside a transaction, runs without a plan
     * worker: its response is relayed on the backend connection's event loop ({@link DirectRun}).
     * Null when the statement needs the worker.
     */
    private CompletableFuture<StatementOutcome> direct(Plan plan, StatementRequest request, ClientChannel out, ProxyMetrics metrics) {
        if (transaction.isOpen() || transaction.locks().held() || !request.autocommit() || request.ddl()) {
            return null;
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
        return new DirectRun(cursor(request), statement, sql, out, metrics, request.binary(), status(request.autocommit()), running,
                this::noteCommit, this::keepWarnings).start();
    }

    /**
     * The warnings the shards gave for this session's last statement run by a plan worker, each naming its
     * shard, until {@link #forgetWarnings()}: what SHOW WARNINGS after it lists (MyRocks' collation warning
     * 1815 of a DDL statement, a truncation on each shard a scatter read). None after any other statement.
     */
    public synchronized ShardWarnings lastWarnings() {
        return warnings;
    }

    /** A statement that does not read diagnostics started: the last statement's warnings are gone. */
    private synchronized void keepWarnings(ShardWarnings found) {
        warnings = found;
    }

    public synchronized void forgetWarnings() {
        warnings = ShardWarnings.NONE;
    }

    /**
     * BEGIN / START TRANSACTION: commits an open transaction first, as MySQL does; branches start
     * lazily. {@code setTransaction}: the session's pending SET TRANSACTION (isolation level, access
     * mode for the next transaction only), run on each branch before it starts; null for none.
     */
    public CompletableFuture<Void> begin(boolean readOnlyTransaction, String setTransaction) {
        return submit(() -> {
            if (transaction.isOpen()) {
                transaction.commit();
            }
            transaction.locks().unlock(false); // BEGIN releases table locks, as MariaDB's does
            // MariaDB's XA COMMIT does not end a one-shot SET TRANSACTION (nor does a reset of the
            // connection): the branch takes it as a session setting instead, and is reset afterwards.
            transaction.open(readOnlyTransaction, setTransaction == null ? null : OneShotTransaction.sessionScoped(setTransaction));
            writes.reconcile();
            return null;
        });
    }

    /** COMMIT of the open transaction (a no-op without one). */
    public CompletableFuture<Void> commit() {
        return submit(() -> {
            transaction.commit();
            writes.reconcile();
            return null;
        });
    }

    /** ROLLBACK of the open transaction (a no-op without one). */
    public CompletableFuture<Void> rollback() {
        return submit(() -> {
            transaction.rollback();
            writes.reconcile();
            return null;
        });
    }

    /** LOCK TABLES ({@code lock}: {@code request}'s) or UNLOCK TABLES, with MariaDB's implicit commit and release. */
    public CompletableFuture<Void> tableLocks(StatementRequest request, boolean lock) {
        return submit(() -> {
            transaction.tableLocks(lock ? LockTablesStatement.statements(request, deployment.schema()) : null,
                    shard -> cursor(request).bind(deployment.shard(shard).primary()));
            return null;
        });
    }

    /** The session ends: an open transaction is rolled back, table locks released, their connections back to the pools. */
    public void close() {
        if (!transaction.locks().endSession() && !transaction.hasBranches()) {
            writes.reconcile();
            return;
        }
        submit(() -> {
            transaction.close();
            return null;
        }).whenComplete((ok, error) -> {
            writes.reconcile();
            if (error != null) {
                LOG.log(System.Logger.Level.WARNING, "rolling back a closed session's transaction failed", error);
            }
        });
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
        if (request.ddl() && transaction.isOpen()) {
            transaction.commit();
        }
        if (request.ddl()) {
            deployment.collations().forgetAll();
        }
        // An autocommit write to several shards is all or nothing (XA mode): one XA transaction of its own.
        boolean several = request.autocommit() && request.write() && !request.ddl() && transaction.xaMode()
                && PlanShards.touchesSeveral(plan.root(), request.parameters());
        boolean implicit = transaction.openImplicitly(request.autocommit(), request.write(), request.ddl(), several);
        StatementCursor cursor = cursor(request);
        ResultWriter writer = new ResultWriter(out, request.binary());
        Completion completion = null;
        long rowsSent = 0;
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
                        rowsSent++;
                    }
                    writer.end(status(request.autocommit()), root.completion().warnings());
                }
            } finally {
                // Shard results the plan stopped reading (LIMIT) are drained now, so their connections come back.
                cursor.closeAll();
                ShardWarnings found = cursor.takeWarnings(ShardWarnings.maxErrorCount(request.settings().system().values()
                        .get("max_error_count")));
                synchronized (this) {
                    warnings = found;
                }
                if (request.ddl()) {
                    deployment.afterDdl();
                }
            }
            if (implicit) {
                transaction.commit();
            }
        } catch (RuntimeException e) {
            if (implicit || breaksTransaction(e)) {
                // The transaction is gone on the shard that reported it; the others must follow.
                transaction.safeRollback(LOG);
            }
            throw e;
        }
        if (completion == null) {
            return new StatementOutcome(0, 0, status(request.autocommit()), rowsSent, 0, cursor.shardsTouched());
        }
        writer.ok(completion, status(request.autocommit()));
        return new StatementOutcome(completion.lastInsertId(), 0, status(request.autocommit()), 0, completion.affectedRows(),
                cursor.shardsTouched());
    }

    /**
     * Whether the error ended the transaction on some shard, so that no branch may commit: a deadlock
     * (the shard rolled its branch back), or a shard connection lost mid-statement (the branch died with
     * it). The other branches are rolled back at once, so their locks do not outlive it.
     */
    static boolean breaksTransaction(RuntimeException e) {
        Throwable cause = e instanceof CompletionException && e.getCause() != null ? e.getCause() : e;
        if (cause instanceof io.shardgate.errors.ShardgateException shardgate) {
            return shardgate.code() == ErrorCode.BACKEND_LOST;
        }
        return cause instanceof BackendErrorException backend && (backend.packet().errno() == 1213 || backend.packet().errno() == 1180);
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

    private StatementCursor cursor(StatementRequest request) {
        return new StatementCursor(request, deployment, transaction, causal, running, this::noteCommit);
    }
}
