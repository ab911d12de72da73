package io.shardgate.proxy.sharding;

import io.shardgate.errors.ErrorCode;
import io.shardgate.proxy.execution.ClientChannel;
import io.shardgate.proxy.execution.ResultWriter;
import io.shardgate.proxy.execution.StatementRequest;
import io.shardgate.proxy.protocol.ColumnDefinition;
import io.shardgate.proxy.protocol.ServerStatus;
import io.shardgate.router.exec.ColumnMeta;
import io.shardgate.router.exec.Completion;
import io.shardgate.router.exec.Row;
import io.shardgate.router.exec.RowStream;
import io.shardgate.router.plan.Execution;

import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Consumer;

/**
 * A planned statement's result kept open for COM_STMT_FETCH: what a prepared statement executed with
 * CURSOR_TYPE_READ_ONLY reads. Opening runs the plan as {@link ShardedSession} runs any other, reads its first row
 * (a shard that fails at once gets a clean ERR) and answers the column definitions, ended with
 * SERVER_STATUS_CURSOR_EXISTS ({@link ResultWriter#cursorHeader}; described as MariaDB describes a cursor's rows,
 * {@link CursorColumns}); each fetch reads up to its count of rows from
 * the plan's row stream and sends them in the binary protocol, ended with CURSOR_EXISTS, or with LAST_ROW_SENT
 * when the stream ended within it (the cursor is then closed and a further fetch answers 1421), as MariaDB does.
 *
 * <p>Nothing is buffered beyond what the plan itself buffers: a shard stream stops reading from its connection while
 * the client does not fetch ({@link io.shardgate.proxy.execution.ShardResultStream}), and the connections stay
 * with the cursor until it is read to its end or closed (COM_STMT_RESET, COM_STMT_CLOSE, a new execute of the
 * statement, the session's end or reset, an error), when they go back to their pools.
 *
 * <p>Inside a transaction the cursor's rows are read whole at execute (up to {@code limits.max_buffered_rows}, else
 * ERR 1038), as MariaDB materialises a cursor's result: the transaction's branch connections are free again for the
 * session's next statement, which a cursor still reading from them would block. When the transaction ends (COMMIT,
 * ROLLBACK, a DDL's implicit commit) the cursor ends with it: a later fetch answers 1421.
 *
 * <p>Opening, fetching and closing run on the deployment's plan workers, one at a time (this object's lock).
 */
public final class PlanCursor {
    private static final System.Logger LOG = System.getLogger(PlanCursor.class.getName());

    /** What an execute did: its outcome, and the cursor it opened (null when the statement had no result set and answered OK). */
    public record Opened(StatementOutcome outcome, PlanCursor cursor) {
    }

    /** The session's side of a cursor: how its plan reaches the shards, and what it leaves behind. */
    interface Shards {
        /** Plans and runs the statement. */
        RowStream open();

        /** The column definitions the client gets for the plan's columns. */
        List<ColumnDefinition> definitions(List<ColumnMeta> columns);

        /** The definitions as MariaDB describes them for a cursor ({@link CursorColumns}). */
        List<ColumnDefinition> cursorDefinitions(List<ColumnDefinition> definitions);

        /** Closes the statement's shard results, so their connections go back; their warnings are kept or dropped. */
        void release(boolean keepWarnings);

        /** The session's status flags now. */
        int status();

        /** The open transaction (a number that changes when it ends), or -1 outside one. */
        long transaction();

        /** The cursor failed with {@code error} (its results released): a transaction the error broke is rolled back. */
        void failed(RuntimeException error);

        /** How many shards the statement ran on so far. */
        int shardsTouched();

        /** The most rows a cursor inside a transaction holds ({@code limits.max_buffered_rows}). */
        long maxBufferedRows();
    }

    private final int statementId;
    private final Shards shards;
    private final Executor workers;
    /** {@link Shards#transaction()} when the cursor opened; -1 outside a transaction. */
    private long transaction = -1;
    private RowStream root;
    private List<ColumnDefinition> columns;
    /** The row read at open and not sent yet. */
    private Row first;
    /** Inside a transaction: the rest of the rows, read at open. */
    private final java.util.ArrayDeque<Row> materialised = new java.util.ArrayDeque<>();
    /** The plan's stream has ended and its shard results are released: what is left is the last fetch's LAST_ROW_SENT. */
    private boolean ended;
    private Completion completion = Completion.NONE;
    private boolean released;
    private boolean closed;

    PlanCursor(int statementId, Shards shards, Executor workers) {
        this.statementId = statementId;
        this.shards = shards;
        this.workers = workers;
    }

    /** The cursor of a statement of {@code request}, reaching the shards through {@code cursor}. */
    static PlanCursor of(int statementId, StatementRequest request, StatementCursor cursor, ShardTransaction transaction,
                         ShardedDeployment deployment, Consumer<ShardWarnings> warnings) {
        return new PlanCursor(statementId, new OnShards(request, cursor, transaction, deployment, warnings), deployment.workers());
    }

    /** Runs the statement and answers its column definitions (or its OK, without a result set), on a plan worker. */
    CompletableFuture<Opened> open(ClientChannel out) {
        return submit(() -> openNow(out));
    }

    /** COM_STMT_FETCH: up to {@code rows} rows, on a plan worker; a failure (ERR for the client) closes the cursor. */
    public CompletableFuture<StatementOutcome> fetch(long rows, ClientChannel out) {
        return submit(() -> fetchNow(rows, out));
    }

    /** Closes the cursor; completes once its shard results are closed and their connections on their way back. */
    public CompletableFuture<Void> close() {
        return submit(() -> {
            closeNow();
            return null;
        });
    }

    /** Whether the cursor is closed: read to its end, failed, or closed. */
    public synchronized boolean isClosed() {
        return closed;
    }

    synchronized Opened openNow(ClientChannel out) {
        try {
            root = shards.open();
            transaction = shards.transaction();
            List<ColumnMeta> metas = root.columns();
            if (metas.isEmpty()) {
                // No result set (SELECT ... INTO): answered as without a cursor.
                while (root.next() != null) {
                    // nothing to send
                }
                Completion done = root.completion();
                closed = true;
                release(true);
                new ResultWriter(out, true).ok(done, shards.status());
                return new Opened(new StatementOutcome(done.lastInsertId(), 0, shards.status(), 0, done.affectedRows(),
                        shards.shardsTouched()), null);
            }
            columns = shards.definitions(metas);
            first = root.next();
            if (first == null) {
                end();
            } else if (transaction >= 0) {
                materialise();
            }
            // Described as MariaDB describes a cursor's materialised rows; the rows are encoded by the plan's own types.
            new ResultWriter(out, true).cursorHeader(shards.cursorDefinitions(columns), shards.status() | ServerStatus.CURSOR_EXISTS);
            return new Opened(new StatementOutcome(0, 0, shards.status(), 0, 0, shards.shardsTouched()), this);
        } catch (RuntimeException e) {
            fail(e);
            throw e;
        }
    }

    synchronized StatementOutcome fetchNow(long rows, ClientChannel out) {
        if (closed) {
            throw ErrorCode.NO_OPEN_CURSOR.exception(statementId);
        }
        if (transaction >= 0 && shards.transaction() != transaction) {
            // Its transaction ended and closed the shard results it read: what they would give now is not its rest.
            closeNow();
            throw ErrorCode.NO_OPEN_CURSOR.exception(statementId);
        }
        ResultWriter writer = new ResultWriter(out, true);
        long sent = 0;
        try {
            while (sent < rows) {
                Row row = first;
                first = null;
                if (row == null) {
                    row = materialised.poll();
                }
                if (row == null && !ended) {
                    row = root.next();
                }
                if (row == null) {
                    end();
                    closed = true;
                    writer.end(shards.status() | ServerStatus.LAST_ROW_SENT, completion.warnings());
                    return new StatementOutcome(0, 0, shards.status(), sent, 0, shards.shardsTouched());
                }
                writer.row(columns, row);
                sent++;
            }
        } catch (RuntimeException e) {
            fail(e);
            throw e;
        }
        writer.end(shards.status() | ServerStatus.CURSOR_EXISTS, 0);
        return new StatementOutcome(0, 0, shards.status(), sent, 0, shards.shardsTouched());
    }

    synchronized void closeNow() {
        closed = true;
        release(false);
    }

    /** Reads the rest of the rows now, so the transaction's branch connections serve the session's next statement. */
    private void materialise() {
        long limit = shards.maxBufferedRows();
        Row row;
        while ((row = root.next()) != null) {
            if (materialised.size() + 1 > limit) {
                throw ErrorCode.BUFFER_LIMIT.exception(limit, "a cursor inside a transaction reads its rows at execute");
            }
            materialised.add(row);
        }
        end();
    }

    /** The plan's stream ended: its shard results are released now, so their connections go back before the last fetch. */
    private void end() {
        if (!ended) {
            ended = true;
            completion = root.completion();
            release(true);
        }
    }

    private void fail(RuntimeException e) {
        closed = true;
        try {
            release(true);
        } catch (RuntimeException suppressed) {
            e.addSuppressed(suppressed);
        }
        shards.failed(e);
    }

    private void release(boolean keepWarnings) {
        if (released) {
            return;
        }
        released = true;
        try {
            if (root != null) {
                root.close();
            }
        } finally {
            shards.release(keepWarnings);
        }
    }

    private <T> CompletableFuture<T> submit(Callable<T> work) {
        CompletableFuture<T> result = new CompletableFuture<>();
        try {
            workers.execute(() -> {
                try {
                    result.complete(work.call());
                } catch (Throwable e) {
                    result.completeExceptionally(e);
                }
            });
        } catch (RejectedExecutionException e) {
            result.completeExceptionally(ErrorCode.INTERNAL.exception("no worker thread for a cursor: " + e.getMessage()));
        }
        return result;
    }

    /** A sharded session's statement, run as {@link ShardedSession} runs any other: through a {@link StatementCursor}. */
    private record OnShards(StatementRequest request, StatementCursor cursor, ShardTransaction sessionTransaction,
                            ShardedDeployment deployment, Consumer<ShardWarnings> warnings) implements Shards {
        @Override
        public RowStream open() {
            // With autocommit off the read opens the session's transaction, as any statement does.
            sessionTransaction.openImplicitly(request.autocommit(), false, false, false);
            // Its PREPARE planned it already (and answered a refusal): planning fails here only if the schema changed since.
            return deployment.plan(request.sql(), request.schema())
                    .open(new Execution(cursor, request.parameters(), deployment.sequences(), deployment.maxBufferedRows()));
        }

        @Override
        public List<ColumnDefinition> definitions(List<ColumnMeta> columns) {
            return OutputColumns.of(columns, cursor.firstColumns());
        }

        @Override
        public List<ColumnDefinition> cursorDefinitions(List<ColumnDefinition> definitions) {
            String results = request.settings().system().values().get("character_set_results");
            // Tracked empty when NULL; binary converts nothing either.
            return CursorColumns.of(definitions, results == null || !(results.isEmpty() || results.equalsIgnoreCase("binary")));
        }

        @Override
        public void release(boolean keepWarnings) {
            cursor.closeAll();
            ShardWarnings found = cursor.takeWarnings(ShardWarnings.maxErrorCount(request.settings().system().values()
                    .get("max_error_count")));
            if (keepWarnings) {
                warnings.accept(found);
            }
        }

        @Override
        public int status() {
            return sessionTransaction.status(request.autocommit());
        }

        @Override
        public long transaction() {
            return sessionTransaction.isOpen() ? sessionTransaction.ended() : -1;
        }

        @Override
        public void failed(RuntimeException error) {
            if (ShardedSession.breaksTransaction(error)) {
                // The transaction is gone on the shard that reported it; the others must follow.
                sessionTransaction.safeRollback(LOG);
            }
        }

        @Override
        public int shardsTouched() {
            return cursor.shardsTouched();
        }

        @Override
        public long maxBufferedRows() {
            return deployment.maxBufferedRows();
        }
    }
}
