package io.shardgate.proxy.frontend;

import io.shardgate.proxy.execution.ClientChannel;
import io.shardgate.proxy.execution.StatementRequest;
import io.shardgate.proxy.sharding.PlanCursor;
import io.shardgate.proxy.sharding.ShardedSession;
import io.shardgate.proxy.sharding.StatementOutcome;
import io.shardgate.router.classify.StatementClass;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * A sharded session's open cursors by statement id ({@link PlanCursor}): opened by COM_STMT_EXECUTE with
 * CURSOR_TYPE_READ_ONLY, read by COM_STMT_FETCH, and gone once a fetch reached the end or failed, or when
 * COM_STMT_RESET, COM_STMT_CLOSE, a new execute of the statement or the session's end (quit, COM_RESET_CONNECTION,
 * COM_CHANGE_USER) closes them. Opening and fetching complete on plan workers, so the map is guarded by this object.
 */
final class ShardedCursors {
    private static final System.Logger LOG = System.getLogger(ShardedCursors.class.getName());

    private final Map<Integer, PlanCursor> open = new HashMap<>();
    private boolean ended;

    /**
     * Whether an execute with these flags opens a cursor: CURSOR_TYPE_READ_ONLY on a statement with a result set
     * (MariaDB opens one for SELECT and SHOW alike); any other statement answers as without the flag.
     */
    static boolean opens(int executeFlags, StatementClass kind) {
        return (executeFlags & io.shardgate.proxy.protocol.StatementPackets.CURSOR_TYPE_READ_ONLY) != 0
                && (kind == StatementClass.READ || kind == StatementClass.READ_NEEDS_PRIMARY
                || kind == StatementClass.LOCKING_READ || kind == StatementClass.SHOW);
    }

    /** Runs the statement with a cursor ({@link ShardedSession#openCursor}) and keeps the cursor it opened. */
    CompletableFuture<StatementOutcome> open(ShardedSession sharded, int statementId, StatementRequest request, ClientChannel out) {
        return sharded.openCursor(request, statementId, out).thenApply(opened -> {
            if (opened.cursor() != null) {
                keep(statementId, opened.cursor());
            }
            return opened.outcome();
        });
    }

    private void keep(int statementId, PlanCursor cursor) {
        PlanCursor replaced;
        synchronized (this) {
            // Opened after the session ended (the client left while it opened): closed at once.
            replaced = ended ? cursor : open.put(statementId, cursor);
        }
        if (replaced != null) {
            quietly(replaced);
        }
    }

    /** COM_STMT_FETCH of up to {@code rows} rows; null when the statement has no open cursor. */
    CompletableFuture<StatementOutcome> fetch(int statementId, long rows, ClientChannel out) {
        PlanCursor cursor;
        synchronized (this) {
            cursor = open.get(statementId);
        }
        if (cursor == null) {
            return null;
        }
        return cursor.fetch(rows, out).whenComplete((outcome, error) -> {
            if (error != null || cursor.isClosed()) {
                synchronized (this) {
                    open.remove(statementId, cursor);
                }
            }
        });
    }

    /** Closes the statement's cursor, if it has one; completes (never exceptionally) once its shard results are closed. */
    CompletableFuture<Void> close(int statementId) {
        PlanCursor cursor;
        synchronized (this) {
            cursor = open.remove(statementId);
        }
        return cursor == null ? CompletableFuture.completedFuture(null) : quietly(cursor);
    }

    /** The session ends: every cursor closes, and one that opens from now on closes at once. */
    void closeAll() {
        List<PlanCursor> all;
        synchronized (this) {
            ended = true;
            all = List.copyOf(open.values());
            open.clear();
        }
        all.forEach(ShardedCursors::quietly);
    }

    private static CompletableFuture<Void> quietly(PlanCursor cursor) {
        return cursor.close().exceptionally(error -> {
            LOG.log(System.Logger.Level.WARNING, "closing a cursor over shards failed", error);
            return null;
        });
    }
}
