package io.shardgate.proxy.frontend;

import io.netty.channel.EventLoop;
import io.shardgate.proxy.backend.BackendConnection;
import io.shardgate.proxy.backend.BackendPool;
import io.shardgate.proxy.execution.SessionBinding;
import io.shardgate.errors.ErrorCode;
import io.shardgate.proxy.protocol.Command;
import io.shardgate.proxy.session.SessionPin;
import io.shardgate.proxy.session.SessionVariables;
import io.shardgate.proxy.session.SettingsSync;
import io.shardgate.proxy.session.UserVariableCapture;

import io.shardgate.proxy.protocol.ServerStatus;
import io.shardgate.proxy.routing.ReplicaRead;
import io.shardgate.proxy.routing.ShardBackends;
import io.shardgate.router.classify.Classification;
import io.shardgate.router.classify.ReadWriteDecision;
import io.shardgate.router.classify.RoutingDecision;
import io.shardgate.router.classify.SessionRoutingState;
import io.shardgate.router.classify.Target;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Binds a session to a backend connection for each command, and lets go of it afterwards
 * (transaction-level multiplexing). A session that holds state only its connection has (see
 * {@link ClientSession#holdsBackend()}) keeps it; any other returns it to the pool after each
 * command, and the next command takes whichever connection the pool offers, brought to the
 * session's settings first with one SET when they differ.
 *
 * <p>Which pool: {@link ReadWriteDecision} says primary or replica from the statement's class and
 * the session's state; a replica read goes to a replica whose measured lag fits its freshness
 * budget (hint, session setting, config) and, for causal reads, that has applied the session's last
 * write (or waits for it with MASTER_GTID_WAIT); failing that, the primary or an error per
 * {@code routing.fallback}. For now one shard; sharding chooses the shard here too.
 */
final class CommandRouter {
    private static final System.Logger LOG = System.getLogger(CommandRouter.class.getName());
    private final FrontendContext context;
    private final ReplicaRead replicaRead;

    CommandRouter(FrontendContext context) {
        this.context = context;
        this.replicaRead = new ReplicaRead(context.topology().routing(), context.metrics()::readRetried);
    }

    private ShardBackends shard() {
        return context.backends();
    }

    /**
     * The connection that runs the session's next command, in the session's schema and settings.
     * {@code classification} is the statement's (null for commands that are not statements, which
     * go to the primary); {@code needsLastInsertId}: it reads LAST_INSERT_ID(), so the connection
     * must have the session's.
     */
    CompletableFuture<BackendConnection> backendFor(ClientSession session, EventLoop loop, Classification classification,
                                                    boolean needsLastInsertId, boolean readsDiagnostics) {
        BackendConnection held = session.backend();
        if (held != null && held.isOpen()) {
            if (readsDiagnostics || !heldOnlyForNextStatement(session) || classification == null
                    || isReplica(held) == (decide(session, classification).target() == Target.REPLICA)) {
                return CompletableFuture.completedFuture(held);
            }
            // Kept in case the next statement asked for warnings; this one belongs elsewhere.
            session.pins().remove(SessionPin.NEXT_STATEMENT);
            session.backend(null);
            held.owner().release(held);
        } else if (held != null) {
            session.backend(null);
            held.owner().discard(held);
            if (session.inTransaction()) {
                // The server rolled the transaction back with its connection: the client must learn it, not carry on outside it.
                session.status(session.status() & ~(ServerStatus.IN_TRANS | ServerStatus.IN_TRANS_READONLY));
                session.cursors().clear();
                session.longData().clear();
                String reason = held.closedBecause();
                return CompletableFuture.failedFuture(ErrorCode.TRANSACTION_ABORTED.exception(held.target().shard(),
                        held.target().role(), reason == null ? "the server closed it" : reason));
            }
            // What lived on that connection is gone with it: no cursor or long data keeps the session pinned.
            session.cursors().clear();
            session.longData().clear();
        }
        if (classification == null) {
            return bind(session, loop, shard().primary(), needsLastInsertId);
        }
        RoutingDecision decision = decide(session, classification);
        if (decision.target() != Target.REPLICA) {
            return bind(session, loop, shard().primary(), needsLastInsertId);
        }
        long budget = classification.hints().maxLagMs().orElse(session.maxLagMs().orElse(context.topology().routingConfig().maxReplicaLagMs()));
        return replicaRead.connect(shard(), budget, session.causalPosition(), pool -> bind(session, loop, pool, needsLastInsertId),
                connection -> {
                    session.backend(null);
                    connection.owner().release(connection);
                }, "connection " + session.connectionId());
    }

    private static RoutingDecision decide(ClientSession session, Classification classification) {
        return ReadWriteDecision.decide(classification, routingState(session), classification.hints());
    }

    private static boolean heldOnlyForNextStatement(ClientSession session) {
        return session.pins().size() == 1 && session.pins().contains(SessionPin.NEXT_STATEMENT) && !session.inTransaction()
                && session.cursors().isEmpty() && session.longData().isEmpty();
    }

    private static boolean isReplica(BackendConnection connection) {
        return "replica".equals(connection.target().role());
    }

    /** What the read/write decision needs to know about the session. */
    static SessionRoutingState routingState(ClientSession session) {
        String autocommit = session.settings().system().values().get("autocommit");
        String readOnly = session.settings().system().values().getOrDefault("tx_read_only",
                session.settings().system().values().get("transaction_read_only"));
        boolean readOnlyNext = session.nextTransactionReadOnly()
                || (readOnly != null && (readOnly.equals("ON") || readOnly.equals("1")));
        boolean inTransaction = session.inTransaction();
        boolean readOnlyTransaction = inTransaction ? (session.status() & ServerStatus.IN_TRANS_READONLY) != 0 : readOnlyNext;
        return new SessionRoutingState(inTransaction, readOnlyTransaction, session.pins().contains(SessionPin.TEMPORARY_TABLES),
                autocommit == null || !(autocommit.equals("OFF") || autocommit.equals("0")));
    }

    /** A connection of {@code pool} brought to the session ({@link SessionBinding}), bound to it for the command. */
    private CompletableFuture<BackendConnection> bind(ClientSession session, EventLoop loop, BackendPool pool,
                                                      boolean needsLastInsertId) {
        SessionBinding binding = new SessionBinding(session.schema(), session.settings(),
                needsLastInsertId ? java.util.OptionalLong.of(session.lastInsertId()) : java.util.OptionalLong.empty(),
                () -> nextTransaction(session));
        CompletableFuture<BackendConnection> bound = binding.bind(pool, loop, session.capabilities());
        if (bound.isDone() && !bound.isCompletedExceptionally()) {
            session.backend(bound.join());
            return bound;
        }
        return bound.thenApply(connection -> {
            session.backend(connection);
            return connection;
        });
    }

    /** SET TRANSACTION (the next transaction only), taken from the session: it runs right before the statement it is for. */
    private static String nextTransaction(ClientSession session) {
        String nextTransaction = session.nextTransaction();
        if (nextTransaction != null) {
            session.nextTransaction(null, false);
        }
        return nextTransaction;
    }

    /**
     * After a command: the connection has the session's settings now; unless the session must hold
     * it, it reads the user variables the session may have set (to carry them along) and goes back
     * to the pool. Completes when the session may run its next command.
     */
    CompletableFuture<Void> commandFinished(ClientSession session) {
        BackendConnection connection = session.backend();
        TrackingChange tracking = session.trackingChange();
        session.trackingChange(null);
        if (connection == null) {
            return CompletableFuture.completedFuture(null);
        }
        if (tracking != null && connection.isOpen()) {
            return restoreTracking(session, connection, tracking).thenCompose(ok -> afterCommand(session, connection));
        }
        return afterCommand(session, connection);
    }

    /**
     * The command changed the connection's session tracking (a client may narrow or switch off
     * {@code session_track_*}; MariaDB Connector/J narrows it right after connecting): Shardgate's
     * own tracking goes back on before anything else runs on the connection, so the server reports
     * every later change again and the connection never reaches another session narrowed. What the
     * statement changed besides may have gone unreported, so those variables are read back; when the
     * statement was more than SETs (or the change came from where Shardgate cannot read it), the
     * session keeps the connection for good and it is reset afterwards. The client's own value of
     * the tracking variables is not kept: {@code SELECT @@session_track_system_variables} answers
     * Shardgate's {@code *} (docs/architecture.md).
     */
    private CompletableFuture<Void> restoreTracking(ClientSession session, BackendConnection connection, TrackingChange tracking) {
        CompletableFuture<Void> restored = connection.restoreTracking();
        CompletableFuture<Void> readBack;
        if (!tracking.onlySet() || tracking.assigned().isEmpty()) {
            readBack = restored;
        } else {
            readBack = restored.thenCompose(ok -> connection.query(tracking.readBackQuery())).thenAccept(result -> {
                if (result.rows().size() != 1 || result.rows().get(0).size() != tracking.assigned().size()) {
                    throw new IllegalStateException("reading back " + tracking.assigned() + " returned " + result.rows().size() + " rows");
                }
                SessionVariables system = session.settings().system();
                for (int i = 0; i < tracking.assigned().size(); i++) {
                    String name = tracking.assigned().get(i);
                    byte[] value = result.rows().get(0).get(i);
                    if (SettingsSync.replayed(name)) {
                        system = system.with(name, value == null ? "" : new String(value, java.nio.charset.StandardCharsets.UTF_8));
                    }
                }
                session.settings(session.settings().withSystem(system));
            });
        }
        return readBack.handle((ok, error) -> {
            if (error != null || !tracking.onlySet()) {
                if (error != null) {
                    LOG.log(System.Logger.Level.WARNING, "connection " + session.connectionId()
                            + ": cannot restore session tracking on its backend connection, keeping it", error);
                }
                session.pins().add(SessionPin.UNTRACKED_STATE);
                connection.markUntracked();
            }
            return null;
        });
    }

    private CompletableFuture<Void> afterCommand(ClientSession session, BackendConnection connection) {
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
        connection.owner().release(connection);
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
            backend.owner().discard(backend);
        } else {
            backend.owner().release(backend);
        }
    }

    void discardBackend(ClientSession session) {
        BackendConnection backend = session.backend();
        if (backend != null) {
            session.backend(null);
            backend.owner().discard(backend);
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
        List<BackendConnection> victims = new ArrayList<>();
        if (target.backend() != null) {
            victims.add(target.backend());
        }
        if (target.sharded() != null) {
            // A sharded statement may be running on several shards at once: each of them is stopped.
            victims.addAll(target.sharded().running());
        }
        List<CompletableFuture<Void>> kills = new ArrayList<>();
        for (BackendConnection victim : victims) {
            String sql = (queryOnly ? "KILL QUERY " : "KILL CONNECTION ") + victim.serverThreadId();
            BackendPool pool = victim.owner();
            kills.add(pool.acquire(killer.channel().eventLoop(), 0, "")
                    .thenCompose(control -> control.run(Command.QUERY, sql).whenComplete((ok, error) -> {
                        if (error == null) {
                            pool.release(control);
                        } else {
                            pool.discard(control);
                        }
                    })));
        }
        CompletableFuture<Void> done = CompletableFuture.allOf(kills.toArray(CompletableFuture[]::new));
        if (!queryOnly) {
            done = done.thenRun(() -> target.channel().close());
        }
        return done;
    }
}
