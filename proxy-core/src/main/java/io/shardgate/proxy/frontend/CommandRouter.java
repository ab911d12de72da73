package io.shardgate.proxy.frontend;

import io.netty.channel.EventLoop;
import io.shardgate.proxy.backend.BackendConnection;
import io.shardgate.proxy.backend.BackendPool;
import io.shardgate.proxy.error.ErrorCode;
import io.shardgate.proxy.protocol.Command;
import io.shardgate.proxy.session.SessionPin;
import io.shardgate.proxy.session.SettingsSync;
import io.shardgate.proxy.session.UserVariableCapture;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * Binds a session to a backend connection for each command, and lets go of it afterwards
 * (transaction-level multiplexing). A session that holds state only its connection has (see
 * {@link ClientSession#holdsBackend()}) keeps it; any other returns it to the pool after each
 * command, and the next command takes whichever connection the pool offers, brought to the
 * session's settings first with one SET when they differ.
 *
 * <p>For now every session is served by the first shard's primary; read/write split and sharding
 * choose the pool here without touching the protocol handling.
 */
final class CommandRouter {
    private static final System.Logger LOG = System.getLogger(CommandRouter.class.getName());
    private final FrontendContext context;

    CommandRouter(FrontendContext context) {
        this.context = context;
    }

    private BackendPool pool() {
        return context.primaryPool();
    }

    /**
     * The connection that runs the session's next command, in the session's schema and settings.
     * {@code needsLastInsertId}: the statement reads LAST_INSERT_ID(), so the connection must have the session's.
     */
    CompletableFuture<BackendConnection> backendFor(ClientSession session, EventLoop loop, boolean needsLastInsertId) {
        BackendConnection held = session.backend();
        if (held != null && held.isOpen()) {
            return CompletableFuture.completedFuture(held);
        }
        if (held != null) {
            session.backend(null);
            pool().discard(held);
        }
        return pool().acquire(loop, session.capabilities(), session.schema(), session.settings())
                .thenCompose(connection -> bring(session, connection, needsLastInsertId).handle((ok, error) -> {
                    if (error != null) {
                        // The SET may have half applied: the connection is reset before anyone uses it.
                        connection.markUntracked();
                        pool().release(connection);
                        throw error instanceof RuntimeException e ? e : new java.util.concurrent.CompletionException(error);
                    }
                    session.backend(connection);
                    return connection;
                }));
    }

    private CompletableFuture<Void> bring(ClientSession session, BackendConnection connection, boolean needsLastInsertId) {
        Optional<String> set = SettingsSync.statement(connection.settings(), session.settings());
        String sql = set.orElse(null);
        if (needsLastInsertId && connection.lastInsertId() != session.lastInsertId()) {
            String assign = "SESSION last_insert_id=" + Long.toUnsignedString(session.lastInsertId());
            sql = sql == null ? "SET " + assign : sql + ", " + assign;
        }
        if (sql == null) {
            return CompletableFuture.completedFuture(null);
        }
        return connection.run(Command.QUERY, sql).thenRun(() -> {
            connection.settings(session.settings());
            if (needsLastInsertId) {
                connection.lastInsertId(session.lastInsertId());
            }
        });
    }

    /**
     * After a command: the connection has the session's settings now; unless the session must hold
     * it, it reads the user variables the session may have set (to carry them along) and goes back
     * to the pool. Completes when the session may run its next command.
     */
    CompletableFuture<Void> commandFinished(ClientSession session) {
        BackendConnection connection = session.backend();
        if (connection == null) {
            return CompletableFuture.completedFuture(null);
        }
        connection.settings(session.settings());
        connection.lastInsertId(session.lastInsertId());
        for (SessionPin pin : session.pins()) {
            if (pin.resetsConnection()) {
                connection.markUntracked();
            }
        }
        if (session.holdsBackend() || !connection.isOpen()) {
            return CompletableFuture.completedFuture(null);
        }
        if (session.unreadUserVariables().isEmpty()) {
            release(session, connection);
            return CompletableFuture.completedFuture(null);
        }
        List<String> names = new ArrayList<>(session.unreadUserVariables());
        return connection.query(UserVariableCapture.query(names)).handle((result, error) -> {
            java.util.Map<String, String> literals = null;
            if (error == null) {
                try {
                    literals = UserVariableCapture.literals(names, result);
                } catch (RuntimeException e) {
                    error = e;
                }
            }
            if (error != null) {
                // The values live only on this connection now: the session keeps it.
                LOG.log(System.Logger.Level.WARNING, "connection " + session.connectionId()
                        + ": cannot read user variables " + names + ", keeping its backend connection", error);
                session.pins().add(SessionPin.UNTRACKED_STATE);
                connection.markUntracked();
                return null;
            }
            session.unreadUserVariables().clear();
            session.settings(session.settings().withUser(session.settings().user().withAll(literals)));
            connection.settings(session.settings());
            release(session, connection);
            return null;
        });
    }

    private void release(ClientSession session, BackendConnection connection) {
        session.backend(null);
        pool().release(connection);
    }

    /**
     * The session ends (disconnect, COM_CHANGE_USER, COM_RESET_CONNECTION): its connection goes back
     * to the pool, reset first when {@code reset} or when it may hold more than known settings.
     */
    void endSession(ClientSession session, boolean reset) {
        BackendConnection backend = session.backend();
        if (backend == null) {
            return;
        }
        session.backend(null);
        if (reset || session.holdsBackend() || !session.unreadUserVariables().isEmpty()) {
            backend.markUntracked();
        }
        if (backend.schema() == null) {
            pool().discard(backend);
        } else {
            pool().release(backend);
        }
    }

    void discardBackend(ClientSession session) {
        BackendConnection backend = session.backend();
        if (backend != null) {
            session.backend(null);
            pool().discard(backend);
        }
    }

    /**
     * KILL [QUERY] for a Shardgate connection id: the statement is killed on the backend
     * connection serving that session, and for KILL CONNECTION the client connection is closed too.
     */
    CompletableFuture<Void> kill(ClientSession killer, long targetId, boolean queryOnly) {
        ClientSession target = context.registry().find(targetId).orElse(null);
        if (target == null) {
            return CompletableFuture.failedFuture(ErrorCode.UNKNOWN_THREAD.exception(targetId));
        }
        if (!target.user().equals(killer.user())) {
            return CompletableFuture.failedFuture(ErrorCode.NOT_THREAD_OWNER.exception(targetId));
        }
        BackendConnection victim = target.backend();
        CompletableFuture<Void> done;
        if (victim == null) {
            done = CompletableFuture.completedFuture(null);
        } else {
            String sql = (queryOnly ? "KILL QUERY " : "KILL CONNECTION ") + victim.serverThreadId();
            done = pool().acquire(killer.channel().eventLoop(), 0, "")
                    .thenCompose(control -> control.run(Command.QUERY, sql).whenComplete((ok, error) -> {
                        if (error == null) {
                            pool().release(control);
                        } else {
                            pool().discard(control);
                        }
                    }));
        }
        if (!queryOnly) {
            done = done.thenRun(() -> target.channel().close());
        }
        return done;
    }
}
