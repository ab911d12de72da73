package io.shardgate.proxy.sharding;

import io.shardgate.proxy.backend.BackendConnection;
import io.shardgate.errors.ErrorCode;
import io.shardgate.proxy.execution.ClientChannel;
import io.shardgate.proxy.execution.Forwarder;
import io.shardgate.proxy.execution.Relay;
import io.shardgate.proxy.protocol.Command;
import io.shardgate.proxy.protocol.MySqlPacket;
import io.shardgate.router.exec.ShardStatement;

import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.BiConsumer;

/**
 * The fast case of a sharded statement: its plan is one route to one shard outside a transaction,
 * so its response is relayed from that shard on the connection's event loop ({@link Relay}, the
 * relay of every single-backend response), with no plan worker in between. A read whose replica
 * fails before any of its answer reached the client runs again on the shard's primary, as an
 * unsharded one does ({@link Forwarder}).
 */
final class DirectRun implements Relay.Listener {
    private final StatementCursor cursor;
    private final ShardStatement statement;
    private final byte[] sql;
    private final ClientChannel out;
    private final Relay.Shape shape;
    private final int status;
    private final Set<BackendConnection> running;
    private final BiConsumer<String, String> committed;
    private final CompletableFuture<StatementOutcome> result = new CompletableFuture<>();

    /**
     * @param sql       the shard statement, in the client's character set
     * @param status    the session's status flags, for the response's end
     * @param running   the session's connections running a statement now (KILL QUERY stops them)
     * @param committed notes a shard's commit GTID for the session: shard, GTID
     */
    DirectRun(StatementCursor cursor, ShardStatement statement, byte[] sql, ClientChannel out, boolean binary, int status,
              Set<BackendConnection> running, BiConsumer<String, String> committed) {
        this.cursor = cursor;
        this.statement = statement;
        this.sql = sql;
        this.out = out;
        this.shape = binary ? Relay.Shape.BINARY : Relay.Shape.TEXT;
        this.status = status;
        this.running = running;
        this.committed = committed;
    }

    /** Runs the statement; completes with what it did, or fails before or while answering. */
    CompletableFuture<StatementOutcome> start() {
        cursor.connectionFor(statement, null).whenComplete(this::run);
        return result;
    }

    private void run(BackendConnection connection, Throwable error) {
        if (error != null) {
            result.completeExceptionally(error instanceof CompletionException && error.getCause() != null ? error.getCause() : error);
            return;
        }
        running.add(connection);
        try {
            connection.execute(MySqlPacket.command(Command.QUERY, sql), Command.QUERY, new Relay(connection, out, shape, status, this));
        } catch (RuntimeException e) {
            running.remove(connection);
            connection.owner().discard(connection);
            result.completeExceptionally(e);
        }
    }

    @Override
    public void completed(Relay relay, int serverStatus, boolean error) {
        BackendConnection connection = relay.connection();
        running.remove(connection);
        if (!connection.isOpen()) {
            connection.owner().discard(connection);
        } else {
            if (relay.lastGtid() != null) {
                committed.accept(statement.shard(), relay.lastGtid());
            }
            connection.owner().release(connection);
        }
        result.complete(new StatementOutcome(relay.insertId(), relay.relayedErrno(), status));
    }

    @Override
    public void failed(Relay relay, Throwable cause) {
        BackendConnection connection = relay.connection();
        running.remove(connection);
        connection.owner().discard(connection);
        if (!relay.started() && Forwarder.isReplica(connection)) {
            // Nothing reached the client yet: the read runs again, on the shard's primary.
            cursor.bind(cursor.primaryOf(statement.shard())).whenComplete(this::run);
            return;
        }
        result.completeExceptionally(ErrorCode.BACKEND_LOST.exception(connection.target().shard(), connection.target().role()));
    }
}
