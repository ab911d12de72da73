package io.shardgate.proxy.sharding;

import io.shardgate.errors.ErrorCode;
import io.shardgate.proxy.backend.BackendConnection;
import io.shardgate.proxy.backend.ResponseSink;
import io.shardgate.proxy.error.BackendErrorException;
import io.shardgate.proxy.execution.ShardResultStream;
import io.shardgate.proxy.protocol.Command;
import io.shardgate.proxy.protocol.ErrPacket;
import io.shardgate.proxy.protocol.MySqlPacket;
import io.shardgate.router.exec.ShardStatement;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.function.BiConsumer;
import java.util.function.Function;

/**
 * A sharded session's LOCK TABLES: one connection per shard that holds a locked table, pinned to the session
 * from its LOCK TABLES until UNLOCK TABLES (or an implicit release: BEGIN, the next LOCK TABLES, the session's
 * end). While locks are held every statement of the session runs on its shard's lock connection (no replica,
 * no other pooled connection), so the shard applies MariaDB's own rules (1100 for a table not locked); a
 * statement that needs a shard without one gets that 1100 here.
 *
 * <p>Locks are taken shard after shard in shard-name order, so two sessions locking the same tables wait for
 * each other instead of deadlocking across shards. A shard that refuses releases what was taken, and its error is
 * the statement's. A lock connection goes back to its pool only after UNLOCK TABLES succeeded on it; otherwise it
 * is closed, which ends its locks on the server. Its state is guarded by this object: the session's worker and
 * the backend connections' event loops both reach it.
 */
final class TableLocks {
    private static final System.Logger LOG = System.getLogger(TableLocks.class.getName());

    /** The session's connections running a statement now, for KILL QUERY and the process list. */
    private final Set<BackendConnection> running;
    private final Executor workers;
    /** The lock connections by shard, in shard-name order. */
    private final Map<String, BackendConnection> held = new TreeMap<>();
    /** The last stream on each lock connection: the next statement there waits for its response to end. */
    private final Map<String, ShardResultStream> lastStreams = new HashMap<>();
    /** The session ended: locks taken from now on are released at once. */
    private boolean closed;

    TableLocks(Set<BackendConnection> running, Executor workers) {
        this.running = running;
        this.workers = workers;
    }

    /** Whether the session holds table locks. */
    synchronized boolean held() {
        return !held.isEmpty();
    }

    /** The session ends: locks taken from now on are released at once. Returns whether locks are held. */
    synchronized boolean endSession() {
        closed = true;
        return !held.isEmpty();
    }

    /** Whether {@code connection} is the session's lock connection on {@code shard} (it stays with the session). */
    synchronized boolean holds(String shard, BackendConnection connection) {
        return held.get(shard) == connection && connection != null;
    }

    /**
     * Takes the locks: {@code statements} by shard (each in the client's character set), each on a connection of
     * that shard's primary from {@code bind}, one shard after the other in name order. Completes once every shard
     * locked; when one fails, those taken are released and the future fails with that shard's error. None may be held.
     */
    CompletableFuture<Void> lock(SortedMap<String, byte[]> statements, Function<String, CompletableFuture<BackendConnection>> bind) {
        Map<String, BackendConnection> taken = new LinkedHashMap<>();
        CompletableFuture<Void> chain = CompletableFuture.completedFuture(null);
        for (Map.Entry<String, byte[]> shard : statements.entrySet()) {
            chain = chain.thenCompose(ok -> bind.apply(shard.getKey())).thenCompose(connection -> {
                running.add(connection); // a LOCK TABLES that waits for another session's lock can be killed
                return run(connection, shard.getValue()).handle((done, error) -> {
                    running.remove(connection);
                    if (error == null) {
                        taken.put(shard.getKey(), connection);
                        return null;
                    }
                    // A failed LOCK TABLES holds nothing on its connection.
                    backToPool(connection, false);
                    throw error instanceof CompletionException e ? e : new CompletionException(error);
                });
            });
        }
        // Never a join here: this runs on a backend connection's event loop, which must stay free to read.
        return chain.handle((ok, error) -> error).thenCompose(error -> {
            boolean adopted = false;
            if (error == null) {
                synchronized (this) {
                    if (!closed) {
                        held.putAll(taken);
                        adopted = true;
                    }
                }
            }
            CompletableFuture<?> released = adopted ? CompletableFuture.completedFuture(null)
                    : CompletableFuture.allOf(taken.values().stream().map(TableLocks::unlockAndRelease).toArray(CompletableFuture[]::new));
            return released.handle((done, ignored) -> {
                if (error != null) {
                    throw error instanceof CompletionException e ? e : new CompletionException(error);
                }
                return null;
            });
        });
    }

    /**
     * The lock connection that runs {@code statement} while locks are held, brought to the session by {@code sync}
     * once the previous response on it ended; a failed future (1100) when its shard has none and it names a table;
     * null when no lock is held, or when its shard has none and it names no table (it runs as usual).
     * {@code ofStatement}: the statement's other streams.
     */
    synchronized CompletableFuture<BackendConnection> connection(ShardStatement statement, ShardResultStream stream,
                                                                 List<ShardResultStream> ofStatement,
                                                                 Function<BackendConnection, CompletableFuture<BackendConnection>> sync) {
        if (held.isEmpty()) {
            return null;
        }
        String shard = statement.shard();
        BackendConnection connection = held.get(shard);
        if (connection == null) {
            Optional<String> table = LockTablesStatement.firstTable(statement.sql());
            return table.<CompletableFuture<BackendConnection>>map(name -> CompletableFuture.failedFuture(
                    ErrorCode.TABLE_NOT_LOCKED.exception(name))).orElse(null);
        }
        ShardResultStream previous = lastStreams.get(shard);
        if (previous != null && ofStatement.contains(previous) && !previous.isComplete() && !previous.isClosed()) {
            return CompletableFuture.failedFuture(ErrorCode.UNSUPPORTED.exception(
                    "two statements on shard " + shard + " at once under LOCK TABLES (a UNION or subquery over one sharded table)"));
        }
        if (stream != null) {
            lastStreams.put(shard, stream);
        }
        CompletableFuture<Void> idle = previous == null ? CompletableFuture.completedFuture(null)
                : CompletableFuture.runAsync(previous::awaitComplete, workers);
        return idle.thenCompose(ok -> sync.apply(connection));
    }

    /**
     * COM_STMT_PREPARE's metadata ({@link ShardedPrepare#prepareOn}): read under LOCK TABLES on its shard's lock
     * connection, through {@code cursor} (a pooled one would wait for the session's own WRITE lock), which stays with
     * the session; else, or when the statement names no table and its shard has none, on {@code pooled}'s connection.
     */
    CompletableFuture<ShardedPrepare.Metadata> prepare(ShardedPrepare.Source source, io.shardgate.proxy.protocol.ClientCharset charset,
                                                       StatementCursor cursor,
                                                       java.util.function.Supplier<CompletableFuture<BackendConnection>> pooled) {
        CompletableFuture<BackendConnection> locked = held() ? cursor.connectionFor(
                new ShardStatement(source.shard(), source.sql(), List.of(), io.shardgate.router.exec.Role.PRIMARY), null) : null;
        return (locked != null ? locked : pooled.get())
                .thenCompose(connection -> ShardedPrepare.prepareOn(connection, source, charset, holds(source.shard(), connection)));
    }

    /**
     * COMMIT or ROLLBACK on every lock connection: the end of a transaction run under LOCK TABLES (autocommit off),
     * which leaves the locks held, as MariaDB does. Blocks: for the session's worker.
     */
    void endTransaction(boolean commit, BiConsumer<String, String> committed) {
        RuntimeException failure = null;
        for (Map.Entry<String, BackendConnection> lock : awaitIdle().entrySet()) {
            try {
                if (commit) {
                    String gtid = ShardTransaction.join(CommitGtid.run(lock.getValue(), "COMMIT"));
                    if (gtid != null) {
                        committed.accept(lock.getKey(), gtid);
                    }
                } else {
                    ShardTransaction.join(lock.getValue().run(Command.QUERY, "ROLLBACK"));
                }
            } catch (RuntimeException e) {
                failure = failure == null ? e : failure;
            }
        }
        if (failure != null) {
            throw failure;
        }
    }

    /** {@link #release}, waited for: for the session's worker. */
    void unlock(boolean sessionEnds) {
        ShardTransaction.join(release(sessionEnds));
    }

    /**
     * Releases every lock: UNLOCK TABLES on each connection, which then goes back to its pool (closed when that
     * failed); completes once all are back, failed with a shard's error if one failed. {@code sessionEnds}: the client
     * is gone, so a statement still running on a lock connection is cut off by closing that connection, and locks
     * taken later are released at once. Blocks until the last response on each lock connection has ended.
     */
    CompletableFuture<Void> release(boolean sessionEnds) {
        Map<String, BackendConnection> taken;
        List<ShardResultStream> last;
        // Taken and cleared at once: of two releases (the session's end on one worker, UNLOCK TABLES on another),
        // only one gets the connections to unlock and give back.
        synchronized (this) {
            closed |= sessionEnds;
            taken = new TreeMap<>(held);
            last = new ArrayList<>(lastStreams.values());
            held.clear();
            lastStreams.clear();
        }
        awaitEnd(last, sessionEnds);
        return CompletableFuture.allOf(taken.values().stream().map(TableLocks::unlockAndRelease).toArray(CompletableFuture[]::new));
    }

    /** The lock connections once the last response on each has ended; they stay held. */
    private Map<String, BackendConnection> awaitIdle() {
        Map<String, BackendConnection> taken;
        List<ShardResultStream> last;
        synchronized (this) {
            taken = new TreeMap<>(held);
            last = new ArrayList<>(lastStreams.values());
        }
        awaitEnd(last, false);
        return taken;
    }

    /** Waits until each of the {@code last} responses has ended ({@code cut}: a running one's connection is closed first). */
    private static void awaitEnd(List<ShardResultStream> last, boolean cut) {
        for (ShardResultStream stream : last) {
            if (cut && !stream.isComplete() && stream.connection() != null) {
                stream.connection().close();
            }
            stream.close();
            stream.awaitComplete();
        }
    }

    /** UNLOCK TABLES on {@code connection}, then back to its pool; closed instead when that failed or it is busy or gone. */
    private static CompletableFuture<Void> unlockAndRelease(BackendConnection connection) {
        if (!connection.isOpen() || connection.isBusy()) {
            backToPool(connection, true);
            return CompletableFuture.completedFuture(null);
        }
        return connection.run(Command.QUERY, "UNLOCK TABLES").whenComplete((ok, error) -> {
            if (error != null) {
                LOG.log(System.Logger.Level.WARNING, "UNLOCK TABLES failed on shard " + connection.target().shard()
                        + "; its connection is closed: " + FailureText.of(error));
            }
            backToPool(connection, error != null);
        });
    }

    private static void backToPool(BackendConnection connection, boolean close) {
        if (close || !connection.isOpen()) {
            connection.close();
            connection.owner().discard(connection);
        } else {
            connection.owner().release(connection);
        }
    }

    /** Runs {@code sql} (in the client's character set) on {@code connection}; fails with the shard's ERR. */
    private static CompletableFuture<Void> run(BackendConnection connection, byte[] sql) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        connection.execute(MySqlPacket.command(Command.QUERY, sql), Command.QUERY, new ResponseSink() {
            private ErrPacket error;

            @Override
            public void packet(MySqlPacket packet) {
                try {
                    if (packet.header() == ErrPacket.HEADER && error == null) {
                        error = ErrPacket.decode(packet.payload());
                    }
                } finally {
                    packet.release();
                }
            }

            @Override
            public void flush() {
            }

            @Override
            public void complete(int status, boolean failed) {
                if (failed && error != null) {
                    done.completeExceptionally(new BackendErrorException(error));
                } else {
                    done.complete(null);
                }
            }

            @Override
            public void failed(Throwable cause) {
                done.completeExceptionally(cause);
            }
        });
        return done;
    }
}
