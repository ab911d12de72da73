package io.shardgate.proxy.execution;

import io.netty.channel.EventLoop;
import io.shardgate.proxy.backend.BackendConnection;
import io.shardgate.proxy.backend.BackendPool;
import io.shardgate.proxy.protocol.Command;
import io.shardgate.proxy.session.SessionSettings;

import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Supplier;

/**
 * Brings a backend connection to a client session before a statement runs on it, for every path
 * (a session bound to one backend, a sharded statement's shard connections, a transaction's
 * branches): the session's schema, its settings in one SET ({@link io.shardgate.proxy.session.SettingsSync},
 * through {@link BackendConnection#adopt}), its LAST_INSERT_ID() when the statement reads it, and a
 * statement that must run first (the session's pending SET TRANSACTION).
 *
 * @param schema       the session's schema (empty: none)
 * @param settings     the session's variables
 * @param lastInsertId the session's LAST_INSERT_ID(), when the statement reads it
 * @param runFirst     gives, once the connection is there, a statement to run before the session's (null: none);
 *                     the session's pending SET TRANSACTION is handed over only to a connection that will run its statement
 */
public record SessionBinding(String schema, SessionSettings settings, OptionalLong lastInsertId,
                             Supplier<String> runFirst) {
    public SessionBinding {
        schema = schema == null ? "" : schema;
    }

    /**
     * A connection of {@code pool}, preferring {@code loop} and connections with the session's
     * settings, brought to the session. A connection whose sync failed (its SET may have half
     * applied) is reset before anyone uses it again.
     */
    public CompletableFuture<BackendConnection> bind(BackendPool pool, EventLoop loop, long shaping) {
        CompletableFuture<BackendConnection> acquired = pool.acquire(loop, shaping, schema, settings);
        if (doneNormally(acquired)) {
            // The usual case, an idle connection: brought to the session without a stage per step.
            BackendConnection connection = acquired.join();
            CompletableFuture<BackendConnection> synced;
            try {
                synced = sync(connection);
            } catch (RuntimeException e) {
                connection.markUntracked();
                pool.release(connection);
                return CompletableFuture.failedFuture(e);
            }
            if (doneNormally(synced)) {
                pool.countServed();
                return synced;
            }
            return afterSync(pool, connection, synced);
        }
        return acquired.thenCompose(connection -> afterSync(pool, connection, sync(connection)));
    }

    private static CompletableFuture<BackendConnection> afterSync(BackendPool pool, BackendConnection connection,
                                                                  CompletableFuture<BackendConnection> synced) {
        return synced.handle((ok, error) -> {
            if (error != null) {
                connection.markUntracked();
                pool.release(connection);
                throw error instanceof CompletionException e ? e : new CompletionException(error);
            }
            pool.countServed();
            return connection;
        });
    }

    private static boolean doneNormally(CompletableFuture<?> future) {
        return future.isDone() && !future.isCompletedExceptionally();
    }

    /** Brings {@code connection} (a held one, say a transaction's branch) to the session. */
    public CompletableFuture<BackendConnection> sync(BackendConnection connection) {
        boolean inSchema = schema.isEmpty() || schema.equals(connection.schema());
        if (inSchema) {
            CompletableFuture<Void> adopted = connection.adopt(settings, lastInsertId);
            String first = runFirst == null ? null : runFirst.get();
            if (first == null) {
                return doneNormally(adopted) ? CompletableFuture.completedFuture(connection) : adopted.thenApply(ok -> connection);
            }
            return adopted.thenCompose(ok -> connection.run(Command.QUERY, first)).thenApply(ok -> connection);
        }
        CompletableFuture<Void> done = connection.run(Command.INIT_DB, schema).thenRun(() -> connection.schema(schema));
        done = done.thenCompose(ok -> connection.adopt(settings, lastInsertId));
        String first = runFirst == null ? null : runFirst.get();
        if (first != null) {
            done = done.thenCompose(ok -> connection.run(Command.QUERY, first));
        }
        return done.thenApply(ok -> connection);
    }
}
