package io.shardgate.proxy.sharding;

import io.shardgate.errors.ErrorCode;
import io.shardgate.proxy.backend.BackendConnection;
import io.shardgate.proxy.backend.BackendTarget;
import io.shardgate.proxy.execution.ClientChannel;
import io.shardgate.proxy.execution.Forwarder;
import io.shardgate.proxy.execution.Relay;
import io.shardgate.proxy.metrics.ProxyMetrics;
import io.shardgate.proxy.protocol.Command;
import io.shardgate.proxy.protocol.MySqlPacket;
import io.shardgate.proxy.session.ClientStatement;
import io.shardgate.router.exec.ShardStatement;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.BiConsumer;

/**
 * The fast case of a sharded statement: its plan is one route to one shard outside a transaction,
 * so it runs through {@link Forwarder}, the execution primitive of every single-backend command,
 * with its response relayed from that shard on the connection's event loop (rewritten with the
 * session's status: {@link Relay.Shape#TEXT}, {@link Relay.Shape#BINARY}), with no plan worker in
 * between. This class is the forwarder's host for that one statement: the connection is the
 * {@link StatementCursor}'s choice ({@link Connections}), a retry (of a read whose replica failed before any of its answer
 * reached the client; the forwarder decides) goes to the shard's primary, and the statement's end
 * completes {@link #start()}'s future.
 */
final class DirectRun implements Forwarder.Host<DirectRun.Attempt>, Forwarder.Response {
    /** One try of the statement: the first, or the retry on the shard's primary. */
    record Attempt(Relay.Shape shape, int status, boolean retried) implements Forwarder.Request<Attempt> {
        @Override
        public Command command() {
            return Command.QUERY;
        }

        @Override
        public ClientStatement statement() {
            return null;
        }

        @Override
        public Attempt retry() {
            return new Attempt(shape, status, true);
        }
    }

    /** Where the statement runs: the cursor's choice first, the shard's primary for a retry. */
    interface Connections {
        /** The connection that runs {@code statement} (a replica when the statement and the session allow one). */
        CompletableFuture<BackendConnection> first(ShardStatement statement);

        /** A connection to {@code shard}'s primary, in the session's schema and settings. */
        CompletableFuture<BackendConnection> primary(String shard);
    }

    private final Connections cursor;
    private final ShardStatement statement;
    private final byte[] sql;
    private final ClientChannel out;
    private final ProxyMetrics metrics;
    private final Relay.Shape shape;
    private final int status;
    private final Set<BackendConnection> running;
    private final BiConsumer<String, String> committed;
    /** Keeps the statement's diagnostics for SHOW WARNINGS. */
    private final java.util.function.Consumer<ShardWarnings> diagnostics;
    private final CompletableFuture<StatementOutcome> result = new CompletableFuture<>();
    /** The connection running the statement now; null before and after. */
    private BackendConnection connection;
    /** The last connection let go after a failure (the backend-lost error names it). */
    private BackendTarget lost;

    /**
     * @param sql       the shard statement, in the client's character set
     * @param status    the session's status flags, for the response's end
     * @param running   the session's connections running a statement now (KILL QUERY stops them)
     * @param committed notes a shard's commit GTID for the session: shard, GTID
     */
    DirectRun(Connections cursor, ShardStatement statement, byte[] sql, ClientChannel out, ProxyMetrics metrics, boolean binary,
              int status, Set<BackendConnection> running, BiConsumer<String, String> committed,
              java.util.function.Consumer<ShardWarnings> diagnostics) {
        this.cursor = cursor;
        this.statement = statement;
        this.sql = sql;
        this.out = out;
        this.metrics = metrics;
        this.shape = binary ? Relay.Shape.BINARY : Relay.Shape.TEXT;
        this.status = status;
        this.running = running;
        this.committed = committed;
        this.diagnostics = diagnostics;
    }

    /** Runs the statement; completes with what it did, or fails before or while answering. */
    CompletableFuture<StatementOutcome> start() {
        // A constant name (no string built per statement): the forwarder's log lines name the shard's backend.
        new Forwarder<>(out, metrics, this, "direct sharded statement")
                .forward(MySqlPacket.command(Command.QUERY, sql), new Attempt(shape, status, false));
        return result;
    }

    @Override
    public CompletableFuture<BackendConnection> backendFor(Attempt attempt) {
        return attempt.retried() ? cursor.primary(statement.shard()) : cursor.first(statement);
    }

    /** A direct run happens only outside a transaction. */
    @Override
    public boolean inTransaction() {
        return false;
    }

    /** The connection is the statement's alone: another may serve a retry. */
    @Override
    public boolean bindsOnlyForCommand(BackendConnection backend) {
        return true;
    }

    /** A statement under way runs to its end (its connection goes back then), as a scatter's does. */
    @Override
    public boolean gone() {
        return false;
    }

    @Override
    public boolean active() {
        return !result.isDone();
    }

    @Override
    public void abandon() {
    }

    @Override
    public void discardBackend() {
        BackendConnection discarded = connection;
        if (discarded == null) {
            return;
        }
        connection = null;
        lost = discarded.target();
        running.remove(discarded);
        discarded.owner().discard(discarded);
    }

    /** The statement's end could not be followed after its response went out: the client's connection ends. */
    @Override
    public void close() {
        result.completeExceptionally(ErrorCode.INTERNAL.exception("the end of a sharded statement on shard "
                + statement.shard() + " could not be followed"));
    }

    @Override
    public Forwarder.Response response(Attempt attempt, BackendConnection backend) {
        connection = backend;
        running.add(backend);
        return this;
    }

    @Override
    public void failBeforeResponse(Attempt attempt, Throwable error) {
        result.completeExceptionally(error instanceof CompletionException && error.getCause() != null ? error.getCause() : error);
    }

    /** The statement's future completed with its response ({@link #completed(Relay, int, boolean, int)}). */
    @Override
    public void afterCommand() {
    }

    @Override
    public void lost(Attempt attempt, Throwable cause, boolean started) {
        result.completeExceptionally(lost == null ? cause : ErrorCode.BACKEND_LOST.exception(lost.shard(), lost.role()));
    }

    @Override
    public MySqlPacket relaying(BackendConnection backend, MySqlPacket packet) {
        return packet;
    }

    @Override
    public void completed(int serverStatus, boolean error, int warnings) {
        throw new UnsupportedOperationException("a direct run's end reads its relay");
    }

    @Override
    public void completed(Relay relay, int serverStatus, boolean error, int warnings) {
        BackendConnection done = relay.connection();
        long rowsSent = done.responseRows(); // read before the connection goes back to its pool
        connection = null;
        running.remove(done);
        if (done.isOpen() && (warnings > 0 || error)) {
            // What SHOW WARNINGS after it lists lives on this connection only: read before it goes back to the pool.
            // The connection has the session's max_error_count, so the shard's answer is already bounded by it.
            done.query("SHOW WARNINGS").whenComplete((shown, failure) -> {
                List<ShardWarning> rows = new ArrayList<>();
                if (shown != null) {
                    ShardWarnings.read(statement.shard(), shown.rows(), Long.MAX_VALUE, rows);
                }
                diagnostics.accept(new ShardWarnings(rows, Math.max(warnings, shown == null ? 0 : shown.rows().size())));
                finish(relay, done, rowsSent);
            });
            return;
        }
        finish(relay, done, rowsSent);
    }

    private void finish(Relay relay, BackendConnection done, long rowsSent) {
        if (!done.isOpen()) {
            done.owner().discard(done);
        } else {
            if (relay.lastGtid() != null) {
                committed.accept(statement.shard(), relay.lastGtid());
            }
            done.owner().release(done);
        }
        result.complete(new StatementOutcome(relay.insertId(), relay.relayedErrno(), status, rowsSent, 0, 1));
    }
}
