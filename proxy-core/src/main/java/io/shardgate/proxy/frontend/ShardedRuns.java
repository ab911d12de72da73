package io.shardgate.proxy.frontend;

import io.shardgate.proxy.error.ErrorTranslator;
import io.shardgate.proxy.metrics.ProxyMetrics;
import io.shardgate.proxy.protocol.MySqlPacket;
import io.shardgate.proxy.sharding.StatementOutcome;
import io.shardgate.router.classify.Classification;

import java.util.concurrent.CompletableFuture;

/**
 * Sharded commands as a connection runs them: the worker writes the response, and the command
 * ends here with an OK or ERR when it did not. A transaction statement, as a query or a prepared
 * statement, acts on the session's shard branches: BEGIN, COMMIT and ROLLBACK; SET autocommit=1
 * commits them and then runs as usual.
 */
final class ShardedRuns {
    private static final System.Logger LOG = System.getLogger(ShardedRuns.class.getName());

    private ShardedRuns() {
    }

    /** Runs a sharded command: the worker writes its response; this writes an OK or ERR when it did not. */
    static void run(CommandScope scope, CompletableFuture<?> work) {
        scope.busy();
        work.whenComplete((result, error) -> scope.onLoop(() -> finish(scope, result, error)));
    }

    /** Ends a sharded command with its result or failure, on the connection's loop. */
    static void finish(CommandScope scope, Object result, Throwable error) {
        ClientSession session = scope.session();
        if (session == null) {
            scope.commandDone();
            return;
        }
        ShardedCommands sharded = scope.sharded();
        ProxyMetrics metrics = scope.context().metrics();
        session.status(sharded.sharded().status(ShardedCommands.autocommit(session)));
        if (error != null) {
            ErrorTranslator.Translation translation = scope.context().errors().translate(error);
            if (ErrorTranslator.fromBackend(error)) {
                metrics.backendError(translation.packet().errno());
            }
            if (translation.closeConnection()) {
                LOG.log(System.Logger.Level.ERROR, "connection " + session.connectionId() + ": sharded statement failed", error);
                scope.sendErrorAndClose(sharded.out().nextSequence(), translation.packet());
                return;
            }
            scope.writeError(sharded.out().nextSequence(), translation.packet());
        } else if (result instanceof StatementOutcome outcome) {
            session.digests().finish(outcome.relayedErrno() != 0, outcome.rowsSent(), outcome.rowsAffected(), outcome.shards());
            if (outcome.relayedErrno() != 0) {
                metrics.backendError(outcome.relayedErrno());
                metrics.error(outcome.relayedErrno());
            }
            if (outcome.lastInsertId() != 0) {
                session.lastInsertId(outcome.lastInsertId());
            }
        } else {
            scope.writeOk(1);
        }
        scope.afterCommand();
    }

    /**
     * Runs the transaction statement in {@code packet} on the session's shard branches, then
     * {@code forwardIt} when it must also run the usual way. False when it runs only the usual way
     * (the caller keeps the packet).
     */
    static boolean transaction(CommandScope scope, MySqlPacket packet, Classification classification, Runnable forwardIt) {
        ShardedCommands sharded = scope.sharded();
        ShardedCommands.TransactionAction action = ShardedCommands.transactionAction(classification, sharded.sharded().inTransaction());
        if (action == ShardedCommands.TransactionAction.FORWARD) {
            return false;
        }
        if (action == ShardedCommands.TransactionAction.COMMIT_THEN_FORWARD) {
            scope.busy();
            sharded.transaction(scope.session(), action).whenComplete((ok, error) -> scope.onLoop(() -> {
                if (error != null) {
                    packet.release();
                    finish(scope, null, error);
                    return;
                }
                scope.session().status(sharded.sharded().status(ShardedCommands.autocommit(scope.session())));
                forwardIt.run();
            }));
            return true;
        }
        packet.release();
        run(scope, sharded.transaction(scope.session(), action));
        return true;
    }
}
