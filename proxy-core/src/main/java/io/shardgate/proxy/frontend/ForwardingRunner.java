package io.shardgate.proxy.frontend;

import io.shardgate.proxy.backend.BackendConnection;
import io.shardgate.proxy.backend.BackendStatement;
import io.shardgate.proxy.execution.ClientChannel;
import io.shardgate.proxy.execution.Forwarder;
import io.shardgate.proxy.protocol.ClientCharset;
import io.shardgate.proxy.protocol.Command;
import io.shardgate.proxy.protocol.MySqlPacket;
import io.shardgate.proxy.session.ClientStatement;
import io.shardgate.router.classify.Classification;

import java.util.concurrent.CompletableFuture;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

import static java.util.Objects.requireNonNull;

/**
 * The command executors' way to a backend ({@link StatementRunner}) over the one execution
 * primitive: each command becomes a {@link Pending} that {@link Forwarder} routes, relays and
 * retries, and this class answers the primitive's questions about the client's session
 * ({@link Forwarder.Host}): which backend, whether a transaction is open, what the response
 * changes in the session, and what to do when the backend is lost.
 */
final class ForwardingRunner implements StatementRunner {
    private final CommandScope scope;
    private final String name;
    private final BooleanSupplier closed;
    private final Consumer<BackendConnection> localInfile;
    /** Runs this connection's forwarded commands (one at a time); made on the first. */
    private Forwarder<Pending> forwarder;
    /** The client channel's writer of an unsharded deployment; made on the first command. */
    private ClientChannel own;

    /**
     * @param closed      whether the client connection is closing
     * @param localInfile told of the backend that asked for a LOAD DATA LOCAL file: the client's next packets go there
     */
    ForwardingRunner(CommandScope scope, String name, BooleanSupplier closed, Consumer<BackendConnection> localInfile) {
        this.scope = requireNonNull(scope, "scope is null");
        this.name = requireNonNull(name, "name is null");
        this.closed = requireNonNull(closed, "closed is null");
        this.localInfile = requireNonNull(localInfile, "localInfile is null");
    }

    /** The client channel's writer, once a command has been forwarded; null before. */
    ClientChannel out() {
        return forwarder == null ? null : forwarder.out();
    }

    /**
     * The one writer of the client's channel: a sharded deployment's is its sharded commands' (so a
     * paused backend hears of writability from one place, whichever path paused it); else this runner's.
     */
    private ClientChannel channel() {
        ShardedCommands sharded = scope.sharded();
        if (sharded != null) {
            return sharded.out();
        }
        if (own == null) {
            own = new ClientChannel(scope.ctx().channel(), scope.session().capabilities());
        }
        return own;
    }

    @Override
    public void forward(MySqlPacket packet, Command command) {
        forward(packet, Pending.of(command));
    }

    @Override
    public void query(MySqlPacket packet, Classification classification, boolean needsLastInsertId,
                      TemporaryTableNames.Change temporaryTables, boolean readsDiagnostics) {
        forward(packet, new Pending(Command.QUERY, classification, null, needsLastInsertId, 0, null)
                .withTemporaryTables(temporaryTables).withDiagnostics(readsDiagnostics));
    }

    @Override
    public void prepare(MySqlPacket packet, Classification classification, int id, String sql) {
        forward(packet, new Pending(Command.STMT_PREPARE, classification, null, false, id, sql));
    }

    @Override
    public void prepareFailed(Classification classification, int id, String sql, Throwable error) {
        failBeforeResponse(new Pending(Command.STMT_PREPARE, classification, null, false, id, sql), error);
    }

    @Override
    public void statement(MySqlPacket packet, Command command, ClientStatement statement, boolean needsLastInsertId) {
        forward(packet, new Pending(command, statement.classification(), statement, needsLastInsertId, 0, null));
    }

    private void forward(MySqlPacket packet, Pending pending) {
        scope.busy();
        ClientChannel out = channel();
        if (forwarder == null || forwarder.out() != out) {
            // The first command, or the session's sharded commands were made anew (CHANGE_USER, a reset).
            forwarder = new Forwarder<>(scope.ctx().channel(), out, scope.context().metrics(), new SessionHost(), name);
        }
        forwarder.forward(packet, pending);
    }

    private void failBeforeResponse(Pending pending, Throwable error) {
        ClientSession session = scope.session();
        if (pending.command() == Command.STMT_PREPARE && session != null) {
            session.statements().prepareFailed();
        }
        if (pending.command() == Command.STMT_SEND_LONG_DATA) {
            // No response is allowed: the next execute of this statement reports the failure.
            scope.afterCommand();
            return;
        }
        scope.writeError(1, scope.context().errors().translate(error).packet());
        scope.afterCommand();
    }

    /** What a forwarded command means for this client's session ({@link Forwarder} runs it). */
    private final class SessionHost implements Forwarder.Host<Pending> {
        @Override
        public CompletableFuture<BackendConnection> backendFor(Pending pending) {
            return scope.router().backendFor(scope.session(), scope.ctx().channel().eventLoop(), pending.routedBy(),
                    pending.needsLastInsertId(), pending.readsDiagnostics());
        }

        @Override
        public boolean inTransaction() {
            return scope.session().inTransaction();
        }

        @Override
        public boolean bindsOnlyForCommand(BackendConnection backend) {
            ClientSession session = scope.session();
            return session.backend() == backend && !session.holdsBackend();
        }

        @Override
        public boolean gone() {
            return !scope.ctx().channel().isActive() || closed.getAsBoolean();
        }

        @Override
        public boolean active() {
            return scope.session() != null;
        }

        @Override
        public void abandon() {
            if (scope.session() != null) {
                scope.router().endSession(scope.session(), false);
            }
        }

        @Override
        public void discardBackend() {
            scope.router().discardBackend(scope.session());
        }

        @Override
        public void close() {
            scope.close();
        }

        @Override
        public ClientCharset charset() {
            return scope.session().clientCharset();
        }

        @Override
        public MySqlPacket forBackend(MySqlPacket packet, ClientStatement statement, BackendStatement prepared) {
            return StatementRewriter.forBackend(packet, statement, prepared, scope.ctx().alloc());
        }

        @Override
        public Forwarder.Response response(Pending pending, BackendConnection backend) {
            return new ForwardedResponse(scope.context(), scope.session(), scope.sharded(), backend, pending,
                    scope.ctx().alloc(), localInfile);
        }

        @Override
        public void failBeforeResponse(Pending pending, Throwable error) {
            ForwardingRunner.this.failBeforeResponse(pending, error);
        }

        @Override
        public void afterCommand() {
            scope.afterCommand();
        }

        @Override
        public void lost(Pending pending, Throwable cause, boolean started) {
            ClientSession session = scope.session();
            // Whatever lived on that connection is gone with it.
            session.cursors().clear();
            session.longData().clear();
            if (started) {
                // Part of a response already reached the client: the only consistent end is a close.
                close();
                return;
            }
            if (pending.command() == Command.STMT_PREPARE) {
                session.statements().prepareFailed();
            }
            if (!pending.command().hasNoResponse()) {
                scope.writeError(1, scope.context().errors().translate(cause).packet());
            }
            scope.commandDone();
        }
    }
}
